// The Web module; its types arrive with issue 7 (this file is removed then).
