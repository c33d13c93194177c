"""AST helpers shared by every stage: node constructors, names, templates."""
