# (placeholder: fuzzing targets, filled in by the hostile-input work)
