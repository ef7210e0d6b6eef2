from text_utils import slugify


def test_simple_title():
    assert slugify("Hello World") == "hello-world"


def test_repeated_separators_become_one_hyphen():
    assert slugify("Hello,  World") == "hello-world"


def test_no_hyphens_at_the_ends():
    assert slugify("  Hi! ") == "hi"
