// Package termmd lays out the markdown that agents write for a terminal: ATX and setext
// headings, paragraphs wrapped to a width, bullet, ordered and task lists (nested), block
// quotes, fenced and indented code, thematic breaks, GitHub's pipe tables, and inline code,
// strong, emphasis, strikethrough, links, images and autolinks. What it does not read (HTML,
// reference links, footnotes) stays as written.
//
// It replaces glamour in the terminal client: glamour's syntax highlighter registers its lexers
// and styles when the program starts, which took 10 of the 18 ms the client needed to reach an
// agent. termmd costs nothing at start, and its work grows with the text's length times its
// nesting (the caller bounds the nesting).
//
//	out := termmd.Render("# Report\n\nSome **bold** text.", termmd.Options{Width: 80, Color: true})
package termmd
