"""Batch checks of Python sources for the grammar tests: one process for all of them.

stdin: {"compile": [{"name": ..., "code": ...}], "names": [code, ...]}
stdout: {"errors": [{"name": ..., "error": ...}], "names": [{"defines": [...], "uses": [...]}, ...]}

`defines`: every name bound at the top level (assignments, loop and with targets, def, class, import).
`uses`: the free names the code reads that it has not bound before (Python builtins left out): at the top
level in statement order; inside functions, classes, lambdas and comprehensions, any global the code does
not bind at its top level anywhere (those run later, when it is all bound).
"""
import ast
import builtins
import json
import symtable
import sys

BUILTINS = set(dir(builtins))


def nested_globals(table):
    """Global names read inside the nested scopes of a symbol table (functions, classes, comprehensions)."""
    out = set()
    for child in table.get_children():
        for sym in child.get_symbols():
            if sym.is_referenced() and sym.is_global():
                out.add(sym.get_name())
        out |= nested_globals(child)
    return out


class TopLevel(ast.NodeVisitor):
    """Top-level bindings and reads in evaluation order; nested scopes are left to symtable."""

    def __init__(self):
        self.bound, self.reads = set(), set()

    def bind(self, name):
        self.bound.add(name)

    def visit_Name(self, node):
        if isinstance(node.ctx, ast.Load):
            if node.id not in self.bound:
                self.reads.add(node.id)
        else:
            self.bind(node.id)

    def visit_Assign(self, node):
        self.visit(node.value)
        for t in node.targets:
            self.visit(t)

    def visit_AugAssign(self, node):
        self.visit(node.value)
        if isinstance(node.target, ast.Name):
            self.visit_Name(ast.Name(node.target.id, ast.Load()))
        self.visit(node.target)

    def visit_AnnAssign(self, node):
        if node.value is not None:
            self.visit(node.value)
        self.visit(node.target)

    def visit_NamedExpr(self, node):
        self.visit(node.value)
        self.visit(node.target)

    def visit_For(self, node):
        self.visit(node.iter)
        self.visit(node.target)
        for s in node.body + node.orelse:
            self.visit(s)

    def visit_Import(self, node):
        for a in node.names:
            self.bind(a.asname or a.name.split(".")[0])

    def visit_ImportFrom(self, node):
        for a in node.names:
            self.bind(a.asname or a.name)

    def visit_FunctionDef(self, node):
        defaults = node.args.defaults + [d for d in node.args.kw_defaults if d is not None]
        for d in node.decorator_list + defaults:
            self.visit(d)
        self.bind(node.name)

    visit_AsyncFunctionDef = visit_FunctionDef

    def visit_ClassDef(self, node):
        for d in node.decorator_list + node.bases + [k.value for k in node.keywords]:
            self.visit(d)
        self.bind(node.name)

    def visit_Lambda(self, node):
        for d in node.args.defaults:
            self.visit(d)

    def skip_comprehension(self, node):
        self.visit(node.generators[0].iter)  # the first iterable is evaluated in the enclosing scope

    visit_ListComp = visit_SetComp = visit_DictComp = visit_GeneratorExp = skip_comprehension

    def visit_ExceptHandler(self, node):
        if node.type is not None:
            self.visit(node.type)
        if node.name:
            self.bind(node.name)
        for s in node.body:
            self.visit(s)


def names(code):
    top = TopLevel()
    top.visit(ast.parse(code))
    later = nested_globals(symtable.symtable(code, "<fragment>", "exec")) - top.bound
    return {"defines": sorted(top.bound), "uses": sorted((top.reads | later) - BUILTINS)}


def main():
    job = json.load(sys.stdin)
    errors = []
    for p in job.get("compile", []):
        try:
            compile(p["code"], p["name"], "exec")
        except SyntaxError as e:
            errors.append({"name": p["name"], "error": f"{e.msg} (line {e.lineno})"})
    json.dump({"errors": errors, "names": [names(c) for c in job.get("names", [])]}, sys.stdout)


main()
