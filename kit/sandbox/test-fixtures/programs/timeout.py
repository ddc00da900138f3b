# Forks a worker tree and sleeps past the limit: timeout, and every process of the tree dies.
import os, time
for _ in range(3):
    if os.fork() == 0:
        time.sleep(3600)
        os._exit(0)
print("children started", flush=True)
time.sleep(3600)
