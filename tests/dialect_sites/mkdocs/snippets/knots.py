import rope

# --8<-- [start:bowline]
def bowline(line):
    return rope.loop(line, fixed=True)
# --8<-- [end:bowline]
