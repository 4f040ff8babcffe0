print("flytracker")
