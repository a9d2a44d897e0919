print("engine-bench placeholder")
