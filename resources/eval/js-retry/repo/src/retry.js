// Retrying of flaky async calls (see README).
