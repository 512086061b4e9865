"""Offline harness for running this repository's GitHub Actions workflows with `act`."""
