# The cells (table, row, column, value; tab-separated) of table t as a markdown table whose
# first column is headed h; rows and columns in the order they first appear, "-" where empty.
BEGIN { FS = "\t" }
$1 == t {
	if (!($2 in rseen)) { rseen[$2] = 1; rows[++nr] = $2 }
	if (!($3 in cseen)) { cseen[$3] = 1; cols[++nc] = $3 }
	cell[$2, $3] = $4
}
END {
	if (!nr)
		exit
	head = "| " h
	sep = "| ---"
	for (j = 1; j <= nc; j++) {
		head = head " | " cols[j]
		sep = sep " | ---"
	}
	print head " |"
	print sep " |"
	for (i = 1; i <= nr; i++) {
		line = "| " rows[i]
		for (j = 1; j <= nc; j++)
			line = line " | " ((rows[i], cols[j]) in cell ? cell[rows[i], cols[j]] : "-")
		print line " |"
	}
}
