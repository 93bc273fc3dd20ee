"""The app's ground: Android, pause and resume, the Back key, the window's shape, Kivy fixes."""
