from datetime import date

from dates import date_range, workdays


def test_range_across_a_leap_day():
    assert date_range(date(2024, 2, 28), date(2024, 3, 1)) == [date(2024, 2, 28), date(2024, 2, 29), date(2024, 3, 1)]


def test_end_before_start_is_empty():
    assert date_range(date(2024, 3, 2), date(2024, 3, 1)) == []
    assert workdays(date(2024, 3, 2), date(2024, 3, 1)) == 0


def test_workdays_ending_on_a_friday():
    assert workdays(date(2024, 5, 13), date(2024, 5, 17)) == 5
    assert len(date_range(date(2024, 1, 1), date(2024, 12, 31))) == 366
