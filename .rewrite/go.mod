module conchrewrite

go 1.26.8
