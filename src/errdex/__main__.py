from errdex.cli import main

main()
