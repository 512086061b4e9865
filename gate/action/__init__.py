"""The composite action (``action.yml``): one module per step that runs the gate's Python."""
