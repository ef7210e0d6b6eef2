from text_utils import slugify


def test_digits_are_kept_and_punctuation_collapses():
    assert slugify("Top 10 -- Tips & Tricks!!") == "top-10-tips-tricks"


def test_non_ascii_letters_are_separators():
    assert slugify("Café au lait") == "caf-au-lait"


def test_only_punctuation_gives_empty_string():
    assert slugify("?!--  ") == ""
