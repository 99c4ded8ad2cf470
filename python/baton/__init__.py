"""Baton: an application server for Python web apps whose request path is C++."""

__version__ = "0.1.0"
