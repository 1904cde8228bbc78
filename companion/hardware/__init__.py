"""Hardware behind small interfaces, each with a real implementation and a mock.

Nothing here imports a Pi-only module at import time.
"""
