// Tests for the Web module arrive with issue 7 (this file is removed then).
