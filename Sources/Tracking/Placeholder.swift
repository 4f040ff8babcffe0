// The Tracking module; its types arrive with their issue (this file is removed then).
