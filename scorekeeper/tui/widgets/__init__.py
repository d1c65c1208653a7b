"""Widgets of the app: the walkthrough's inputs."""
