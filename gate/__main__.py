from gate.commands.main import main

raise SystemExit(main())
