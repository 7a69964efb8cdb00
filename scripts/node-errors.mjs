// Where a script run under Node fails, it says why in a few lines: Node's own report of an uncaught error
// would echo the line of Pyodide's minified module that raised (a megabyte), and lose the Python traceback.
const failed = (error) => {
  process.stderr.write(String((error && error.message) || error) + "\n");
  process.exit(1);
};
process.on("uncaughtException", failed);
process.on("unhandledRejection", failed);
