"""Reads the people export: one `name,email,city` CSV line per person, after a header line."""

import csv


def parse_line(line):
    """The fields of one CSV line."""
    return next(csv.reader([line.rstrip("\r\n")]))


def load_people(text):
    """A dict per data line, keyed by the header's column names."""
    lines = [line for line in text.splitlines() if line.strip()]
    header = parse_line(lines[0])
    return [dict(zip(header, parse_line(line))) for line in lines[1:]]
