from contextpull.cli import main

main()
