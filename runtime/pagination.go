package runtime

import (
	"encoding/base64"
	"slices"
	"strings"

	"github.com/mcpgen/mcpgen/runtime/internal/jsonrpc"
	"github.com/mcpgen/mcpgen/runtime/internal/jsonvalue"
	"github.com/mcpgen/mcpgen/runtime/internal/registry"
	"github.com/mcpgen/mcpgen/runtime/internal/wire"
)

// Pagination of the lists that a Server holds (tools/list, prompts/list,
// skills/list, resources/directory/read): a page holds at most
// Server.PageSize items, and its nextCursor names the listing and the key
// of the first item of the next page (a tool's name, a skill's URI).
//
// Invariant: a cursor depends on nothing but the listing and that key, so
// that it is opaque to clients (base64url), the same for the same place
// on every call and on every replica that holds the same items, and an
// item removed or added elsewhere in the list moves no other page's
// start. A cursor of another listing, or one this server did not make, is
// invalid params, which says which.

// cursorSep ends the listing's name in a cursor; no listing name holds it.
const cursorSep = "\x00"

// makeCursor returns the cursor of listing that resumes at key. A
// listing is named by its method, followed for a method that lists the
// children of something by a space and what (the URI of a directory).
func makeCursor(listing, key string) string {
	return base64.RawURLEncoding.EncodeToString([]byte(listing + cursorSep + key))
}

// pageStart returns the index of the item of items at which a page of
// listing begins: 0 without a cursor, else the item whose key the cursor
// names. It answers the request instead when the cursor is not one of
// this listing's, or names an item that is gone.
func pageStart[T any](listing, kind, cursor string, items []T, key func(T) string) (int, *response) {
	if cursor == "" {
		return 0, nil
	}
	raw, err := base64.RawURLEncoding.DecodeString(cursor)
	from, k, ok := strings.Cut(string(raw), cursorSep)
	method, _, _ := strings.Cut(from, " ")
	switch {
	case err != nil || !ok || !pagedMethod(method):
		r := invalidParams("cursor %s is not one this server gave: send the nextCursor of the page before, or no cursor for the first page", quoteCursor(cursor))
		return 0, &r
	case from != listing:
		r := invalidParams("cursor %s belongs to %s, not to %s: send the nextCursor of a page of %[3]s, or no cursor for the first page", quoteCursor(cursor), quoteCursor(from), listing)
		return 0, &r
	}
	for i, item := range items {
		if key(item) == k {
			return i, nil
		}
	}
	r := invalidParams("cursor %s resumes at %s %s, which this server no longer has: list again without a cursor", quoteCursor(cursor), kind, quoteCursor(k))
	return 0, &r
}

// pagedMethod reports whether method answers with pages of a listing.
func pagedMethod(method string) bool {
	switch method {
	case wire.MethodToolsList, wire.MethodPromptsList, wire.MethodSkillsList, wire.MethodDirectoryRead:
		return true
	}
	return false
}

// maxQuotedCursor bounds the part of a cursor, or of what it decodes to,
// that an error repeats.
const maxQuotedCursor = 64

// quoteCursor quotes a cursor, or a part of what it decodes to, for an
// error message, cut to maxQuotedCursor bytes: a client may send a long
// one, and make it decode to anything.
func quoteCursor(cursor string) string {
	if len(cursor) > maxQuotedCursor {
		return string(jsonvalue.AppendString(nil, cursor[:maxQuotedCursor])) + "…"
	}
	return string(jsonvalue.AppendString(nil, cursor))
}

// pageOf returns the items of the page of listing that cursor asks for,
// at most size of them (all that follow the start if size is not
// positive), and the cursor of the next page, "" after the last.
func pageOf[T any](listing, kind, cursor string, size int, items []T, key func(T) string) ([]T, string, *response) {
	start, bad := pageStart(listing, kind, cursor, items, key)
	if bad != nil {
		return nil, "", bad
	}
	end := len(items)
	if size > 0 && end-start > size {
		end = start + size
	}
	next := ""
	if end < len(items) {
		next = makeCursor(listing, key(items[end]))
	}
	return items[start:end], next, nil
}

// pagedList answers a list method with one page: the items of the page
// as the array member, each written by entry (see appendItem), and
// nextCursor when more follow. The whole list, without a cursor and
// without a page size, is what the registry caches instead (see
// listResult).
func pagedList[T any](listing, kind, member, cursor string, size int, items []T, key func(T) string, entry func(b []byte, item T) ([]byte, error)) response {
	page, next, bad := pageOf(listing, kind, cursor, size, items, key)
	if bad != nil {
		return *bad
	}
	b := append([]byte{'"'}, member...)
	b = append(b, `":[`...)
	first := len(b)
	for _, item := range page {
		var err error
		if b, err = appendItem(b, first, item, entry); err != nil {
			return errorResponse(jsonrpc.InternalError, "listing %ss: %v", kind, err)
		}
	}
	b = append(b, ']')
	return rawResult(appendField(b, "nextCursor", next))
}

// listPage answers c, a list method of the items of r, of the kind (tools/list,
// prompts/list): with neither a cursor nor a page size, the whole list as
// the registry caches it (see listResult); else the page the cursor asks
// for, as pagedList writes it, of the items shown to the client (all if
// shown is nil), so that a page holds PageSize of them and no cursor
// names one it is not shown.
func listPage[T any](c *call, r *registry.Registry[T], kind string, variant int, member string, shown func(T) bool, key func(T) string, entry func(b []byte, item T) ([]byte, error)) response {
	cursor, bad := stringParam(c.msg.Params, "cursor", false)
	size := c.ss.srv.PageSize
	switch {
	case bad != nil:
		return *bad
	case cursor == "" && size <= 0:
		return listResult(r, kind, variant, member, entry)
	}
	items := r.All()
	if shown != nil {
		items = slices.DeleteFunc(slices.Clone(items), func(item T) bool { return !shown(item) })
	}
	return pagedList(c.msg.Method, kind, member, cursor, size, items, key, entry)
}
