"""The Legatus device program: screens, menus, the session loop, persistence, the console."""
__version__ = "0.1.0"
