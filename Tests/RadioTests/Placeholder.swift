// Tests for this module arrive with its issue (this file is removed then).
