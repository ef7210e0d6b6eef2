from records import load_people, parse_line


def test_plain_fields():
    assert parse_line("Ann,ann@example.com,Oslo\n") == ["Ann", "ann@example.com", "Oslo"]


def test_quoted_field_with_a_comma():
    assert parse_line('"Smith, Jane",jane@example.com,Bergen') == ["Smith, Jane", "jane@example.com", "Bergen"]


def test_load_people():
    text = 'name,email,city\n"Lee, Bo",bo@example.com,Turku\n'
    assert load_people(text) == [{"name": "Lee, Bo", "email": "bo@example.com", "city": "Turku"}]
