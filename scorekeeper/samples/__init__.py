"""Sample sessions packaged with the app (copies of sample_sessions/), for the home screen's offer."""
