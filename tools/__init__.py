"""The commands (installed as `ttc.tools`): tt-frontend, tt-opt, tt-translate, tt-as, tt-run and tt-compile, each a
module with an `entry()`."""
