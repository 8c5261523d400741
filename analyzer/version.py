"""The package's version: one leaf module, so every layer can name it without importing the package root."""

__version__ = "0.1.0"
