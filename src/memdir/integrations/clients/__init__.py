"""The coding agents memdir installs into (DESIGN §10): ``edits`` (the one
rule of install and uninstall: what memdir adds to a client's settings files
and how exactly that is removed again).
"""
