"""Runs at power-up on the Pico: the Binaryon board link firmware (see README.md)."""

import config
from boardfw import app

app.main(config)
