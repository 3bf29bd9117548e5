"""What the package asks of the operating system and the interpreter, in the standard library,
beneath the reader core and every room: a file the build did not write read as a regular file
under a bound (``bounded_read``), the environment a child process starts with (``child_env``),
names a package exports loaded on first use (``lazy``), where this version installs from for a
hint (``install``), and a SQLite file removed with the files beside it (``sqlite_files``).
Nothing here knows a store, a document or a setting."""
