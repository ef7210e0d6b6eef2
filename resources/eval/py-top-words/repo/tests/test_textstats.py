from textstats import top_words, word_count


def test_word_count():
    assert word_count("It's a dog's life.") == 4


def test_top_words_orders_by_count():
    assert top_words("b a b c b a", 2) == [("b", 3), ("a", 2)]


def test_top_words_is_case_insensitive():
    assert top_words("The cat. the CAT! the", 1) == [("the", 3)]
