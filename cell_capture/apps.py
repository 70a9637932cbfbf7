"""App config for cell capture: registers the ``cell_capture`` match mode."""

from django.apps import AppConfig


class CellCaptureConfig(AppConfig):
    name = "cell_capture"

    def ready(self) -> None:
        from cell_capture.mode import CellCaptureMode
        from matches.modes import register

        register(CellCaptureMode())
