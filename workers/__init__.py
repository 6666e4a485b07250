"""RQ background work: validating whole logs and annotating them."""
