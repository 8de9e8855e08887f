// relaxc: the command-line program.
int main() { return 0; }
