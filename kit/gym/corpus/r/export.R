# The corpus's R side (issue 27), run in the jail by kit/gym/corpus/export-r.ts and scripts/corpus-manifest.ts.
#   Rscript export.R list <out.json> <pkg>...              every data object of the packages, described
#   Rscript export.R export <pkg> <object> <out dir> <max rows>  <out dir>/table.csv of one object
# Conversions: factors -> strings, Date -> YYYY-MM-DD, POSIXct -> ISO UTC, ts -> time (decimal) + value
# (mts: one column per series), matrices -> columns, row names -> `rowname` only when they are not 1..n.
# Numbers are written with 15 significant digits so two runs give the same bytes.
suppressPackageStartupMessages(library(jsonlite))

args <- commandArgs(trailingOnly = TRUE)

# Objects that are no data frame themselves but become one through a fixed recipe (named in hints.json).
recipes <- list(
  # Jane Austen's six novels cut into passages of 10 consecutive non-empty lines, labelled with the book.
  janeaustenr = list(austen_passages = function() {
    b <- janeaustenr::austen_books()
    b <- b[nchar(trimws(b$text)) > 0, ]
    parts <- lapply(split(b, b$book, drop = TRUE), function(d) {
      g <- (seq_len(nrow(d)) - 1) %/% 10
      data.frame(book = as.character(d$book[1]), passage = seq_along(unique(g)) ,
                 text = vapply(split(d$text, g), paste, "", collapse = " "), stringsAsFactors = FALSE)
    })
    d <- do.call(rbind, parts)
    rownames(d) <- NULL
    d
  })
)

find_item <- function(pkg, object) {
  items <- data(package = pkg)$results[, "Item"]
  objs <- sub(" \\(.*\\)$", "", items)
  i <- match(object, objs)
  if (is.na(i)) stop(sprintf("no data object %s in R package %s", object, pkg), call. = FALSE)
  file <- sub("^.* \\((.*)\\)$", "\\1", items[i])
  list(object = objs[i], file = if (grepl("\\(", items[i])) file else objs[i])
}

load_object <- function(pkg, object) {
  r <- recipes[[pkg]][[object]]
  if (!is.null(r)) return(r())
  it <- find_item(pkg, object)
  e <- new.env()
  suppressWarnings(data(list = it$file, package = pkg, envir = e))
  if (!exists(it$object, envir = e, inherits = FALSE))
    stop(sprintf("data(%s) of %s did not define %s", it$file, pkg, it$object), call. = FALSE)
  get(it$object, envir = e)
}

kind_of <- function(x) {
  if (is.ts(x) || inherits(x, "zoo")) return("ts")
  if (is.data.frame(x)) return("data.frame")
  if (is.matrix(x) && !is.table(x)) return("matrix")
  "other"
}

n_obs <- function(x) {
  k <- kind_of(x)
  if (k == "ts") return(NROW(x))
  if (k %in% c("data.frame", "matrix")) return(nrow(x))
  NA_integer_
}

# Name-free fingerprint: rows and the sorted sums of numeric columns (objects shipped twice share it).
fingerprint <- function(d) {
  num <- vapply(d, function(v) is.numeric(v) && !is.matrix(v), TRUE)
  sums <- sort(vapply(d[num], function(v) sum(as.numeric(v), na.rm = TRUE), 0))
  paste(c(nrow(d), sprintf("%.8g", sums)), collapse = "|")
}

as_table <- function(x) {
  k <- kind_of(x)
  if (inherits(x, "zoo")) {
    m <- as.matrix(zoo::coredata(x))
    if (is.null(colnames(m)) || ncol(m) == 1) colnames(m) <- "value"
    return(data.frame(time = zoo::index(x), m, check.names = FALSE))
  }
  if (k == "ts") {
    t <- as.numeric(time(x))
    m <- as.matrix(x)
    cols <- if (is.null(colnames(m)) || ncol(m) == 1) "value" else colnames(m)
    d <- data.frame(time = t, m, check.names = FALSE)
    names(d) <- c("time", cols)
    return(d)
  }
  if (k == "matrix") x <- as.data.frame(x, stringsAsFactors = FALSE)
  if (!is.data.frame(x)) stop(sprintf("an object of class %s is no table", class(x)[1]), call. = FALSE)
  d <- x
  class(d) <- "data.frame"
  # Matrix columns (e.g. a Surv or a poly) become one column each.
  d <- do.call(data.frame, c(lapply(names(d), function(n) {
    v <- d[[n]]
    if (inherits(v, c("yearqtr", "yearmon"))) v <- as.numeric(v)
    if (is.matrix(v)) { v <- as.data.frame(unclass(v)); names(v) <- paste(n, seq_len(ncol(v)), sep = "_") ; v }
    else setNames(list(v), n)
  }), check.names = FALSE, stringsAsFactors = FALSE))
  rn <- attr(x, "row.names")
  if (is.character(rn) && !identical(rn, as.character(seq_len(nrow(d)))))
    d <- data.frame(rowname = rn, d, check.names = FALSE, stringsAsFactors = FALSE)
  d
}

column_text <- function(v) {
  if (inherits(v, "POSIXt")) return(ifelse(is.na(v), "", format(as.POSIXct(v), "%Y-%m-%dT%H:%M:%S", tz = "UTC")))
  if (inherits(v, "Date")) return(ifelse(is.na(v), "", format(v, "%Y-%m-%d")))
  if (is.factor(v) || is.logical(v)) v <- as.character(v)
  if (is.list(v)) v <- vapply(v, function(e) paste(format(unlist(e)), collapse = " "), "")
  if (is.integer(v)) return(ifelse(is.na(v), "", as.character(v)))
  if (is.numeric(v)) return(ifelse(is.na(v), "", sub("^-0$", "0", sprintf("%.15g", as.numeric(v)))))
  v <- as.character(v)
  v <- iconv(v, "", "UTF-8", sub = "?")
  ifelse(is.na(v), "", v)
}

export <- function(pkg, object, out, max_rows) {
  x <- load_object(pkg, object)
  d <- as_table(x)
  if (nrow(d) > max_rows) d <- d[unique(floor(seq(0, nrow(d) - 1, length.out = max_rows)) + 1), , drop = FALSE]
  names(d) <- make.unique(ifelse(nzchar(names(d)), names(d), "column"))
  cols <- lapply(d, column_text)
  names(cols) <- names(d)
  out_df <- as.data.frame(cols, stringsAsFactors = FALSE, check.names = FALSE)
  dir.create(out, showWarnings = FALSE, recursive = TRUE)
  utils::write.csv(out_df, file.path(out, "table.csv"), row.names = FALSE, na = "", fileEncoding = "UTF-8")
  list(ok = TRUE, kind = if (kind_of(x) == "ts") "ts" else "table", rows = nrow(out_df), columns = names(out_df))
}

list_packages <- function(out, pkgs) {
  rows <- list()
  for (pkg in pkgs) {
    desc <- utils::packageDescription(pkg)
    res <- data(package = pkg)$results
    for (i in seq_len(nrow(res))) {
      object <- sub(" \\(.*\\)$", "", res[i, "Item"])
      row <- list(module = pkg, object = object, title = res[i, "Title"], licence = desc$License,
                  version = desc$Version, kind = "other", n = NA_integer_, fingerprint = "", error = "")
      tryCatch({
        x <- load_object(pkg, object)
        row$kind <- kind_of(x)
        row$n <- n_obs(x)
        if (row$kind != "other" && !is.na(row$n) && row$n >= 100) row$fingerprint <- fingerprint(as_table(x))
      }, error = function(e) row$error <<- conditionMessage(e))
      rows[[length(rows) + 1]] <- row
    }
    for (r in names(recipes[[pkg]])) {
      x <- recipes[[pkg]][[r]]()
      rows[[length(rows) + 1]] <- list(module = pkg, object = r, title = "recipe", licence = desc$License,
        version = desc$Version, kind = "recipe", n = nrow(x), fingerprint = fingerprint(x), error = "")
    }
  }
  writeLines(toJSON(rows, auto_unbox = TRUE, na = "null"), out, useBytes = TRUE)
  list(ok = TRUE, rows = length(rows))
}

res <- tryCatch({
  if (args[1] == "list") list_packages(args[2], args[-(1:2)])
  else if (args[1] == "export") export(args[2], args[3], args[4], as.integer(args[5]))
  else stop("unknown mode ", args[1])
}, error = function(e) list(ok = FALSE, message = conditionMessage(e)))
cat("\nOPENMLE_RESULT", toJSON(res, auto_unbox = TRUE), "\n")
