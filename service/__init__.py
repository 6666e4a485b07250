"""The REST API (Flask + flask-smorest) and the thin service layer under it."""
