"""Screens, menus and announcements on the 128x64 OLED, driven by logical keys."""
