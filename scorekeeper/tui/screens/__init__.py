"""The screens of the app: home, new session, walkthrough, standings, help and the dialogs."""
