from datetime import date

from dates import date_range, workdays


def test_single_day():
    day = date(2024, 5, 17)
    assert date_range(day, day) == [day]


def test_three_days():
    assert date_range(date(2024, 5, 1), date(2024, 5, 3)) == [date(2024, 5, 1), date(2024, 5, 2), date(2024, 5, 3)]


def test_workdays_of_a_full_week():
    assert workdays(date(2024, 5, 13), date(2024, 5, 19)) == 5
