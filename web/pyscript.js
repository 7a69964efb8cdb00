// PyScript's start, as a module of the site: it loads PyScript (runtime/pyscript/core.js) and takes out
// the one hook that would make PyScript build JavaScript from a string in this page.
//
// PyScript registers, of its own, a hook for Python running in a worker (it gives a worker's Python the
// `_pyscript` module). In main-thread mode PyScript still reads its worker hooks as it starts each
// script, to be ready for a PyWorker that script may start, and joins each non-empty set of hooks into
// one function made from its source by the Function constructor: an eval, refused by a policy without
// 'unsafe-eval', and Python never starts. The page starts no PyScript worker, so the hook has nothing
// to do here; with the set empty PyScript builds no function. What else PyScript and Pyodide evaluate,
// and why none of it runs in this page: docs/security.md.
import { hooks } from "../runtime/pyscript/core.js";

hooks.worker.onBeforeRunAsync.clear();
