from records import load_people, parse_line


def test_doubled_quotes_are_one_quote():
    assert parse_line('"The ""Boss""",boss@example.com,Rome') == ['The "Boss"', "boss@example.com", "Rome"]


def test_empty_fields_are_kept():
    assert parse_line('Kim,,"",') == ["Kim", "", "", ""]


def test_several_people_with_quotes():
    text = 'name,email,city\r\nAnn,ann@example.com,Oslo\r\n"O\'Neil, Pat","pat@example.com","New York, NY"\r\n'
    assert load_people(text) == [
        {"name": "Ann", "email": "ann@example.com", "city": "Oslo"},
        {"name": "O'Neil, Pat", "email": "pat@example.com", "city": "New York, NY"},
    ]
