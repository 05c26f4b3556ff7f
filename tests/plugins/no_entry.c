/* A shared library without the GrainLab entry point. */
int not_a_plugin(void) { return 42; }
