/*
 * The debug layer's messages (ID3D12InfoQueue / ID3D12InfoQueue1, a tear-off
 * of the device when the debug layer is on), ID3D12Debug, and the DRED
 * settings object (ID3D12DeviceRemovedExtendedDataSettings1), both from
 * D3D12GetDebugInterface as D3D12 has them.
 *
 * A message has a stable ID (XS_MSG_ID_BASE + its row of
 * include/xs12/xs12_messages.def), a category, a severity and a text that
 * names the SPEC rule and the values. Stored messages pass the storage
 * filter on top of the stack; they also go to stderr unless a callback is
 * registered or debug output is muted. Without the debug layer nothing is
 * stored, and only errors go to stderr (so that a failed Close says why).
 */
#include "d3d12/xs_d3d12_private.h"

#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define DEFAULT_LIMIT 1024

static d3d12_device *impl_from_ID3D12InfoQueue1(ID3D12InfoQueue1 *iface)
{
	return container_of(iface, d3d12_device, info.iface);
}

HRESULT d3d12_info_queue_init(d3d12_info_queue *q)
{
	memset(q, 0, sizeof(*q));
	q->iface.lpVtbl = &d3d12_info_queue_vtbl;
	pthread_mutex_init(&q->lock, NULL);
	q->limit = DEFAULT_LIMIT;
	q->nstorage = 1; /* the stack's bottom: an empty filter, everything passes */
	q->next_cookie = 1;
	return S_OK;
}

static void filter_clear(d3d12_filter *f)
{
	free(f->deny_cat), free(f->allow_cat), free(f->deny_sev), free(f->allow_sev), free(f->deny_id), free(f->allow_id);
	memset(f, 0, sizeof(*f));
}

void d3d12_info_queue_fini(d3d12_info_queue *q)
{
	for (UINT64 i = 0; i < q->nmsgs; i++)
		free(q->msgs[(q->first + i) % q->cap].text);
	free(q->msgs);
	for (UINT i = 0; i < q->nstorage; i++)
		filter_clear(&q->storage[i]);
	pthread_mutex_destroy(&q->lock);
}

static bool in_list(const void *list, UINT n, size_t each, const void *v)
{
	for (UINT i = 0; i < n; i++)
		if (!memcmp((const char *)list + i * each, v, each))
			return true;
	return false;
}

static bool passes(const d3d12_filter *f, D3D12_MESSAGE_CATEGORY c, D3D12_MESSAGE_SEVERITY s, D3D12_MESSAGE_ID id)
{
	if (in_list(f->deny_cat, f->ndeny_cat, sizeof(c), &c) || in_list(f->deny_sev, f->ndeny_sev, sizeof(s), &s) ||
	    in_list(f->deny_id, f->ndeny_id, sizeof(id), &id))
		return false;
	if ((f->nallow_cat && !in_list(f->allow_cat, f->nallow_cat, sizeof(c), &c)) ||
	    (f->nallow_sev && !in_list(f->allow_sev, f->nallow_sev, sizeof(s), &s)) ||
	    (f->nallow_id && !in_list(f->allow_id, f->nallow_id, sizeof(id), &id)))
		return false;
	return true;
}

static const char *severity_name(D3D12_MESSAGE_SEVERITY s)
{
	static const char *const n[] = { "CORRUPTION", "ERROR", "WARNING", "INFO", "MESSAGE" };
	return (unsigned)s < 5 ? n[s] : "?";
}

/* Twice the slots (16 at first, at most the limit), the messages moved to
 * the front in order. */
static bool ring_grow(d3d12_info_queue *q)
{
	UINT64 cap = XS_MIN(XS_MAX(q->cap * 2, 16), q->limit);
	d3d12_stored_message *m = xs_calloc(cap, sizeof(*m));
	if (!m)
		return false;
	for (UINT64 i = 0; i < q->nmsgs; i++)
		m[i] = q->msgs[(q->first + i) % q->cap];
	free(q->msgs);
	q->msgs = m;
	q->cap = cap;
	q->first = 0;
	return true;
}

void d3d12_info_queue_add(d3d12_device *d, D3D12_MESSAGE_CATEGORY cat, D3D12_MESSAGE_SEVERITY sev,
			  D3D12_MESSAGE_ID id, const char *text)
{
	d3d12_info_queue *q = &d->info;
	if (!d->debug) {
		if (sev <= D3D12_MESSAGE_SEVERITY_ERROR)
			fprintf(stderr, "xs12 D3D12 %s #%d: %s\n", severity_name(sev), (int)id, text);
		return;
	}
	pthread_mutex_lock(&q->lock);
	bool store = passes(&q->storage[q->nstorage - 1], cat, sev, id);
	if (store) {
		q->allowed_by_filter++;
		if (q->nmsgs == q->cap && q->cap < q->limit && !ring_grow(q))
			store = q->cap > 0; /* out of memory: keep the ring as it is */
	} else {
		q->denied_by_filter++;
	}
	if (store) {
		if (q->nmsgs == q->cap) { /* the oldest goes */
			free(q->msgs[q->first].text);
			q->first = (q->first + 1) % q->cap;
			q->nmsgs--;
			q->discarded++;
		}
		d3d12_stored_message *m = &q->msgs[(q->first + q->nmsgs) % q->cap];
		m->category = cat;
		m->severity = sev;
		m->id = id;
		m->text = xs_strdup(text);
		q->nmsgs++;
	}
	/* callbacks, else stderr */
	UINT ncb = q->ncb;
	__typeof__(q->cb[0]) cb[D3D12_INFO_QUEUE_MAX_CALLBACKS];
	memcpy(cb, q->cb, sizeof(cb));
	bool mute = q->mute_debug_output, brk = q->break_on_severity[sev] || ((unsigned)cat < 11 && q->break_on_category[cat]);
	pthread_mutex_unlock(&q->lock);
	for (UINT i = 0; i < ncb; i++)
		if (!(cb[i].flags & D3D12_MESSAGE_CALLBACK_IGNORE_FILTERS) && !store)
			continue;
		else
			cb[i].fn(cat, sev, id, text, cb[i].ctx);
	if (!ncb && !mute)
		fprintf(stderr, "xs12 D3D12 %s #%d: %s\n", severity_name(sev), (int)id, text);
	if (brk)
		raise(SIGTRAP); /* as D3D12's break-on does: stops in a debugger, ends the process without one */
}

D3D12_MESSAGE_ID d3d12_message_id(xs_rt_msg_id id)
{
	/* A rule D3D12 itself has keeps D3D12's ID (so filters written for
	 * D3D12 work); the others are xs12's, above D3D12's. */
	if (id == XS_MSG_DISPATCH_EMPTY)
		return D3D12_MESSAGE_ID_EMPTY_DISPATCH;
	return (D3D12_MESSAGE_ID)(XS_MSG_ID_BASE + id);
}

void d3d12_message(d3d12_device *d, xs_rt_msg_id id, const char *fmt, ...)
{
	const xs_rt_msg_info *m = xs_rt_msg(id);
	char text[1200];
	int n = snprintf(text, sizeof(text), "%s: ", m->rule);
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(text + n, sizeof(text) - (size_t)n, fmt, ap);
	va_end(ap);
	d3d12_info_queue_add(d, (D3D12_MESSAGE_CATEGORY)m->category, (D3D12_MESSAGE_SEVERITY)m->severity,
			     d3d12_message_id(id), text);
}

void d3d12_message_err(d3d12_device *d, const xs_err *e)
{
	xs_rt_msg_id id = e->id ? (xs_rt_msg_id)e->id /* a runtime error with no rule of its own: */
				: e->status == XS_E_DEVICE_REMOVED ? XS_MSG_DEVICE_REMOVED : XS_MSG_RUNTIME;
	const xs_rt_msg_info *m = xs_rt_msg(id);
	d3d12_info_queue_add(d, (D3D12_MESSAGE_CATEGORY)m->category, (D3D12_MESSAGE_SEVERITY)m->severity,
			     d3d12_message_id(id), e->msg);
}

/* ---- the generated stubs' hooks (xs_d3d12_stubs.c) ----------------------------------- */

/* The device of any object, through COM alone (the stubs know nothing
 * else of This): the device answers QueryInterface for itself, a device
 * child gives it by GetDevice. NULL for blobs and the global objects. */
static d3d12_device *device_of(void *This)
{
	IUnknown *u = This;
	void *p = NULL;
	if (!u)
		return NULL;
	if (SUCCEEDED(u->lpVtbl->QueryInterface(u, &IID_ID3D12Device5, &p))) {
		d3d12_device *d = container_of(p, d3d12_device, iface);
		d3d12_device_release(d);
		return d;
	}
	ID3D12DeviceChild *child = NULL;
	if (FAILED(u->lpVtbl->QueryInterface(u, &IID_ID3D12DeviceChild, (void **)&child)))
		return NULL;
	HRESULT hr = ID3D12DeviceChild_GetDevice(child, &IID_ID3D12Device5, &p);
	ID3D12DeviceChild_Release(child);
	if (FAILED(hr))
		return NULL;
	d3d12_device *d = container_of(p, d3d12_device, iface);
	d3d12_device_release(d);
	return d;
}

HRESULT xs_d3d12_stub_hresult(void *This, const char *method)
{
	d3d12_device *d = device_of(This);
	if (d)
		d3d12_message(d, XS_MSG_NOT_IMPLEMENTED, "%s is not implemented (E_NOTIMPL)", method);
	else
		fprintf(stderr, "xs12 D3D12: %s is not implemented (E_NOTIMPL)\n", method);
	return E_NOTIMPL;
}

void xs_d3d12_stub_void(void *This, const char *method)
{
	d3d12_list *l = d3d12_list_from_command_list(This);
	d3d12_device *d = l ? NULL : device_of(This);
	if (l)
		d3d12_list_error(l, XS_MSG_NOT_IMPLEMENTED, "%s is not implemented: the list fails to Close", method);
	else if (d)
		d3d12_message(d, XS_MSG_NOT_IMPLEMENTED, "%s is not implemented (ignored)", method);
	else
		fprintf(stderr, "xs12 D3D12: %s is not implemented (ignored)\n", method);
}

void xs_d3d12_stub_other(void *This, const char *method)
{
	d3d12_device *d = device_of(This);
	if (d)
		d3d12_message(d, XS_MSG_NOT_IMPLEMENTED, "%s is not implemented (returns 0)", method);
	else
		fprintf(stderr, "xs12 D3D12: %s is not implemented (returns 0)\n", method);
}

/* ---- ID3D12InfoQueue1 ------------------------------------------------------------------- */

static HRESULT STDMETHODCALLTYPE iq_QueryInterface(ID3D12InfoQueue1 *This, REFIID riid, void **out)
{
	d3d12_device *d = impl_from_ID3D12InfoQueue1(This);
	if (iid_is(riid, &IID_ID3D12InfoQueue) || iid_is(riid, &IID_ID3D12InfoQueue1) || iid_is(riid, &IID_IUnknown)) {
		ID3D12InfoQueue1_AddRef(This);
		*out = This;
		return S_OK;
	}
	return d3d12_device_query(d, riid, out);
}

static ULONG STDMETHODCALLTYPE iq_AddRef(ID3D12InfoQueue1 *This)
{
	return ID3D12Device5_AddRef(&impl_from_ID3D12InfoQueue1(This)->iface);
}

static ULONG STDMETHODCALLTYPE iq_Release(ID3D12InfoQueue1 *This)
{
	return ID3D12Device5_Release(&impl_from_ID3D12InfoQueue1(This)->iface);
}

static HRESULT STDMETHODCALLTYPE iq_SetMessageCountLimit(ID3D12InfoQueue1 *This, UINT64 limit)
{
	d3d12_info_queue *q = &impl_from_ID3D12InfoQueue1(This)->info;
	pthread_mutex_lock(&q->lock);
	for (UINT64 i = 0; i < q->nmsgs; i++)
		free(q->msgs[(q->first + i) % q->cap].text);
	free(q->msgs);
	q->msgs = NULL;
	q->nmsgs = q->first = q->cap = 0;
	/* -1: unlimited (bounded at 2^20 messages); any other limit is kept as
	 * given: the ring grows with the messages that come, not with it */
	q->limit = limit == (UINT64)-1 ? (1u << 20) : limit ? limit : 1;
	pthread_mutex_unlock(&q->lock);
	return S_OK;
}

static void STDMETHODCALLTYPE iq_ClearStoredMessages(ID3D12InfoQueue1 *This)
{
	d3d12_info_queue *q = &impl_from_ID3D12InfoQueue1(This)->info;
	pthread_mutex_lock(&q->lock);
	for (UINT64 i = 0; i < q->nmsgs; i++)
		free(q->msgs[(q->first + i) % q->cap].text);
	q->nmsgs = q->first = 0;
	pthread_mutex_unlock(&q->lock);
}

static HRESULT STDMETHODCALLTYPE iq_GetMessage(ID3D12InfoQueue1 *This, UINT64 index, D3D12_MESSAGE *msg,
					       SIZE_T *size)
{
	d3d12_info_queue *q = &impl_from_ID3D12InfoQueue1(This)->info;
	if (!size)
		return E_INVALIDARG;
	pthread_mutex_lock(&q->lock);
	if (index >= q->nmsgs) {
		pthread_mutex_unlock(&q->lock);
		return E_INVALIDARG;
	}
	const d3d12_stored_message *m = &q->msgs[(q->first + index) % q->cap];
	size_t len = strlen(m->text) + 1, need = sizeof(D3D12_MESSAGE) + len;
	HRESULT hr = S_OK;
	if (msg) {
		if (*size < need) {
			hr = E_INVALIDARG;
		} else {
			char *text = (char *)(msg + 1);
			memcpy(text, m->text, len);
			msg->Category = m->category;
			msg->Severity = m->severity;
			msg->ID = m->id;
			msg->pDescription = text;
			msg->DescriptionByteLength = len;
		}
	}
	*size = need;
	pthread_mutex_unlock(&q->lock);
	return hr;
}

#define IQ_COUNT(name, field)                                                      \
	static UINT64 STDMETHODCALLTYPE iq_##name(ID3D12InfoQueue1 *This)          \
	{                                                                          \
		d3d12_info_queue *q = &impl_from_ID3D12InfoQueue1(This)->info;     \
		pthread_mutex_lock(&q->lock);                                      \
		UINT64 v = q->field;                                               \
		pthread_mutex_unlock(&q->lock);                                    \
		return v;                                                          \
	}
IQ_COUNT(GetNumMessagesAllowedByStorageFilter, allowed_by_filter)
IQ_COUNT(GetNumMessagesDeniedByStorageFilter, denied_by_filter)
IQ_COUNT(GetNumStoredMessages, nmsgs)
IQ_COUNT(GetNumStoredMessagesAllowedByRetrievalFilter, nmsgs)
IQ_COUNT(GetNumMessagesDiscardedByMessageCountLimit, discarded)
IQ_COUNT(GetMessageCountLimit, limit)

static bool append(void **list, UINT *n, const void *add, UINT nadd, size_t each)
{
	if (!nadd)
		return true;
	void *p = xs_realloc(*list, (*n + nadd) * each);
	if (!p)
		return false;
	memcpy((char *)p + *n * each, add, nadd * each);
	*list = p;
	*n += nadd;
	return true;
}

static HRESULT add_entries(d3d12_filter *f, const D3D12_INFO_QUEUE_FILTER *in)
{
	bool ok = append((void **)&f->allow_cat, &f->nallow_cat, in->AllowList.pCategoryList, in->AllowList.NumCategories,
			 sizeof(D3D12_MESSAGE_CATEGORY)) &&
		  append((void **)&f->allow_sev, &f->nallow_sev, in->AllowList.pSeverityList, in->AllowList.NumSeverities,
			 sizeof(D3D12_MESSAGE_SEVERITY)) &&
		  append((void **)&f->allow_id, &f->nallow_id, in->AllowList.pIDList, in->AllowList.NumIDs,
			 sizeof(D3D12_MESSAGE_ID)) &&
		  append((void **)&f->deny_cat, &f->ndeny_cat, in->DenyList.pCategoryList, in->DenyList.NumCategories,
			 sizeof(D3D12_MESSAGE_CATEGORY)) &&
		  append((void **)&f->deny_sev, &f->ndeny_sev, in->DenyList.pSeverityList, in->DenyList.NumSeverities,
			 sizeof(D3D12_MESSAGE_SEVERITY)) &&
		  append((void **)&f->deny_id, &f->ndeny_id, in->DenyList.pIDList, in->DenyList.NumIDs,
			 sizeof(D3D12_MESSAGE_ID));
	return ok ? S_OK : E_OUTOFMEMORY;
}

static HRESULT STDMETHODCALLTYPE iq_AddStorageFilterEntries(ID3D12InfoQueue1 *This, D3D12_INFO_QUEUE_FILTER *f)
{
	d3d12_info_queue *q = &impl_from_ID3D12InfoQueue1(This)->info;
	if (!f)
		return E_INVALIDARG;
	pthread_mutex_lock(&q->lock);
	HRESULT hr = add_entries(&q->storage[q->nstorage - 1], f);
	pthread_mutex_unlock(&q->lock);
	return hr;
}

static HRESULT STDMETHODCALLTYPE iq_GetStorageFilter(ID3D12InfoQueue1 *This, D3D12_INFO_QUEUE_FILTER *out,
						     SIZE_T *size)
{
	d3d12_info_queue *q = &impl_from_ID3D12InfoQueue1(This)->info;
	if (!size)
		return E_INVALIDARG;
	pthread_mutex_lock(&q->lock);
	const d3d12_filter *f = &q->storage[q->nstorage - 1];
	size_t need = sizeof(*out) + (f->nallow_cat + f->ndeny_cat) * sizeof(D3D12_MESSAGE_CATEGORY) +
		      (f->nallow_sev + f->ndeny_sev) * sizeof(D3D12_MESSAGE_SEVERITY) +
		      (f->nallow_id + f->ndeny_id) * sizeof(D3D12_MESSAGE_ID);
	HRESULT hr = S_OK;
	if (out && *size < need) {
		hr = E_INVALIDARG;
	} else if (out) {
		char *p = (char *)(out + 1);
#define OUT_LIST(dst, cnt, src, n, T) \
	dst = (T *)(void *)p, cnt = n, memcpy(p, src, n * sizeof(T)), p += n * sizeof(T)
		OUT_LIST(out->AllowList.pCategoryList, out->AllowList.NumCategories, f->allow_cat, f->nallow_cat,
			 D3D12_MESSAGE_CATEGORY);
		OUT_LIST(out->AllowList.pSeverityList, out->AllowList.NumSeverities, f->allow_sev, f->nallow_sev,
			 D3D12_MESSAGE_SEVERITY);
		OUT_LIST(out->AllowList.pIDList, out->AllowList.NumIDs, f->allow_id, f->nallow_id, D3D12_MESSAGE_ID);
		OUT_LIST(out->DenyList.pCategoryList, out->DenyList.NumCategories, f->deny_cat, f->ndeny_cat,
			 D3D12_MESSAGE_CATEGORY);
		OUT_LIST(out->DenyList.pSeverityList, out->DenyList.NumSeverities, f->deny_sev, f->ndeny_sev,
			 D3D12_MESSAGE_SEVERITY);
		OUT_LIST(out->DenyList.pIDList, out->DenyList.NumIDs, f->deny_id, f->ndeny_id, D3D12_MESSAGE_ID);
#undef OUT_LIST
	}
	*size = need;
	pthread_mutex_unlock(&q->lock);
	return hr;
}

static void STDMETHODCALLTYPE iq_ClearStorageFilter(ID3D12InfoQueue1 *This)
{
	d3d12_info_queue *q = &impl_from_ID3D12InfoQueue1(This)->info;
	pthread_mutex_lock(&q->lock);
	filter_clear(&q->storage[q->nstorage - 1]);
	pthread_mutex_unlock(&q->lock);
}

static HRESULT push(d3d12_info_queue *q, const D3D12_INFO_QUEUE_FILTER *f, bool copy)
{
	pthread_mutex_lock(&q->lock);
	HRESULT hr = S_OK;
	if (q->nstorage == D3D12_INFO_QUEUE_MAX_FILTERS) {
		hr = E_OUTOFMEMORY;
	} else {
		d3d12_filter *top = &q->storage[q->nstorage], *below = &q->storage[q->nstorage - 1];
		memset(top, 0, sizeof(*top));
		if (copy) {
			D3D12_INFO_QUEUE_FILTER in = {
				.AllowList = { below->nallow_cat, below->allow_cat, below->nallow_sev, below->allow_sev,
					       below->nallow_id, below->allow_id },
				.DenyList = { below->ndeny_cat, below->deny_cat, below->ndeny_sev, below->deny_sev,
					      below->ndeny_id, below->deny_id },
			};
			hr = add_entries(top, &in);
		}
		if (f && hr == S_OK)
			hr = add_entries(top, f);
		if (hr == S_OK)
			q->nstorage++;
		else
			filter_clear(top);
	}
	pthread_mutex_unlock(&q->lock);
	return hr;
}

static HRESULT STDMETHODCALLTYPE iq_PushEmptyStorageFilter(ID3D12InfoQueue1 *This)
{
	return push(&impl_from_ID3D12InfoQueue1(This)->info, NULL, false);
}

static HRESULT STDMETHODCALLTYPE iq_PushCopyOfStorageFilter(ID3D12InfoQueue1 *This)
{
	return push(&impl_from_ID3D12InfoQueue1(This)->info, NULL, true);
}

static HRESULT STDMETHODCALLTYPE iq_PushStorageFilter(ID3D12InfoQueue1 *This, D3D12_INFO_QUEUE_FILTER *f)
{
	return push(&impl_from_ID3D12InfoQueue1(This)->info, f, false);
}

static void STDMETHODCALLTYPE iq_PopStorageFilter(ID3D12InfoQueue1 *This)
{
	d3d12_info_queue *q = &impl_from_ID3D12InfoQueue1(This)->info;
	pthread_mutex_lock(&q->lock);
	if (q->nstorage > 1)
		filter_clear(&q->storage[--q->nstorage]);
	pthread_mutex_unlock(&q->lock);
}

static UINT STDMETHODCALLTYPE iq_GetStorageFilterStackSize(ID3D12InfoQueue1 *This)
{
	return impl_from_ID3D12InfoQueue1(This)->info.nstorage;
}

/* A program's category and severity: D3D12's enums, which the queue's
 * break-on arrays are indexed by (SetBreakOnCategory/Severity refuse the
 * same values). */
static bool program_message_kind(D3D12_MESSAGE_CATEGORY c, D3D12_MESSAGE_SEVERITY s)
{
	return (unsigned)c <= D3D12_MESSAGE_CATEGORY_SHADER && (unsigned)s <= D3D12_MESSAGE_SEVERITY_MESSAGE;
}

static HRESULT STDMETHODCALLTYPE iq_AddMessage(ID3D12InfoQueue1 *This, D3D12_MESSAGE_CATEGORY c,
					       D3D12_MESSAGE_SEVERITY s, D3D12_MESSAGE_ID id, LPCSTR text)
{
	if (!program_message_kind(c, s))
		return E_INVALIDARG;
	d3d12_info_queue_add(impl_from_ID3D12InfoQueue1(This), c, s, id, text ? text : "");
	return S_OK;
}

static HRESULT STDMETHODCALLTYPE iq_AddApplicationMessage(ID3D12InfoQueue1 *This, D3D12_MESSAGE_SEVERITY s,
							  LPCSTR text)
{
	if (!program_message_kind(D3D12_MESSAGE_CATEGORY_APPLICATION_DEFINED, s))
		return E_INVALIDARG;
	d3d12_info_queue_add(impl_from_ID3D12InfoQueue1(This), D3D12_MESSAGE_CATEGORY_APPLICATION_DEFINED, s,
			     D3D12_MESSAGE_ID_STRING_FROM_APPLICATION, text ? text : "");
	return S_OK;
}

static HRESULT STDMETHODCALLTYPE iq_SetBreakOnCategory(ID3D12InfoQueue1 *This, D3D12_MESSAGE_CATEGORY c, BOOL on)
{
	if ((unsigned)c >= 11)
		return E_INVALIDARG;
	impl_from_ID3D12InfoQueue1(This)->info.break_on_category[c] = on;
	return S_OK;
}

static HRESULT STDMETHODCALLTYPE iq_SetBreakOnSeverity(ID3D12InfoQueue1 *This, D3D12_MESSAGE_SEVERITY s, BOOL on)
{
	if ((unsigned)s >= 5)
		return E_INVALIDARG;
	impl_from_ID3D12InfoQueue1(This)->info.break_on_severity[s] = on;
	return S_OK;
}

static BOOL STDMETHODCALLTYPE iq_GetBreakOnCategory(ID3D12InfoQueue1 *This, D3D12_MESSAGE_CATEGORY c)
{
	return (unsigned)c < 11 && impl_from_ID3D12InfoQueue1(This)->info.break_on_category[c];
}

static BOOL STDMETHODCALLTYPE iq_GetBreakOnSeverity(ID3D12InfoQueue1 *This, D3D12_MESSAGE_SEVERITY s)
{
	return (unsigned)s < 5 && impl_from_ID3D12InfoQueue1(This)->info.break_on_severity[s];
}

static void STDMETHODCALLTYPE iq_SetMuteDebugOutput(ID3D12InfoQueue1 *This, BOOL mute)
{
	impl_from_ID3D12InfoQueue1(This)->info.mute_debug_output = mute;
}

static BOOL STDMETHODCALLTYPE iq_GetMuteDebugOutput(ID3D12InfoQueue1 *This)
{
	return impl_from_ID3D12InfoQueue1(This)->info.mute_debug_output;
}

static HRESULT STDMETHODCALLTYPE iq_RegisterMessageCallback(ID3D12InfoQueue1 *This, D3D12MessageFunc fn,
							    D3D12_MESSAGE_CALLBACK_FLAGS flags, void *ctx,
							    DWORD *cookie)
{
	d3d12_info_queue *q = &impl_from_ID3D12InfoQueue1(This)->info;
	if (!fn || !cookie)
		return E_INVALIDARG;
	pthread_mutex_lock(&q->lock);
	HRESULT hr = S_OK;
	if (q->ncb == D3D12_INFO_QUEUE_MAX_CALLBACKS) {
		hr = E_OUTOFMEMORY;
	} else {
		q->cb[q->ncb].fn = fn;
		q->cb[q->ncb].ctx = ctx;
		q->cb[q->ncb].flags = flags;
		*cookie = q->cb[q->ncb++].cookie = q->next_cookie++;
	}
	pthread_mutex_unlock(&q->lock);
	return hr;
}

static HRESULT STDMETHODCALLTYPE iq_UnregisterMessageCallback(ID3D12InfoQueue1 *This, DWORD cookie)
{
	d3d12_info_queue *q = &impl_from_ID3D12InfoQueue1(This)->info;
	pthread_mutex_lock(&q->lock);
	HRESULT hr = E_INVALIDARG;
	for (UINT i = 0; i < q->ncb; i++)
		if (q->cb[i].cookie == cookie) {
			q->cb[i] = q->cb[--q->ncb];
			hr = S_OK;
			break;
		}
	pthread_mutex_unlock(&q->lock);
	return hr;
}

const ID3D12InfoQueue1Vtbl d3d12_info_queue_vtbl = {
	XS_D3D12_STUBS_ID3D12InfoQueue1,
	.QueryInterface = iq_QueryInterface, .AddRef = iq_AddRef, .Release = iq_Release,
	.SetMessageCountLimit = iq_SetMessageCountLimit, .ClearStoredMessages = iq_ClearStoredMessages,
	.GetMessage = iq_GetMessage,
	.GetNumMessagesAllowedByStorageFilter = iq_GetNumMessagesAllowedByStorageFilter,
	.GetNumMessagesDeniedByStorageFilter = iq_GetNumMessagesDeniedByStorageFilter,
	.GetNumStoredMessages = iq_GetNumStoredMessages,
	.GetNumStoredMessagesAllowedByRetrievalFilter = iq_GetNumStoredMessagesAllowedByRetrievalFilter,
	.GetNumMessagesDiscardedByMessageCountLimit = iq_GetNumMessagesDiscardedByMessageCountLimit,
	.GetMessageCountLimit = iq_GetMessageCountLimit,
	.AddStorageFilterEntries = iq_AddStorageFilterEntries, .GetStorageFilter = iq_GetStorageFilter,
	.ClearStorageFilter = iq_ClearStorageFilter, .PushEmptyStorageFilter = iq_PushEmptyStorageFilter,
	.PushCopyOfStorageFilter = iq_PushCopyOfStorageFilter, .PushStorageFilter = iq_PushStorageFilter,
	.PopStorageFilter = iq_PopStorageFilter, .GetStorageFilterStackSize = iq_GetStorageFilterStackSize,
	.AddMessage = iq_AddMessage, .AddApplicationMessage = iq_AddApplicationMessage,
	.SetBreakOnCategory = iq_SetBreakOnCategory, .SetBreakOnSeverity = iq_SetBreakOnSeverity,
	.GetBreakOnCategory = iq_GetBreakOnCategory, .GetBreakOnSeverity = iq_GetBreakOnSeverity,
	.SetMuteDebugOutput = iq_SetMuteDebugOutput, .GetMuteDebugOutput = iq_GetMuteDebugOutput,
	.RegisterMessageCallback = iq_RegisterMessageCallback,
	.UnregisterMessageCallback = iq_UnregisterMessageCallback,
};

/* ---- ID3D12Debug and the DRED settings (D3D12GetDebugInterface) -------------------------- */

bool d3d12_debug_layer_requested;
bool d3d12_dred_breadcrumbs_requested, d3d12_dred_page_faults_requested;

/* Both are process-wide singletons, as D3D12's are: their reference
 * counts do not free anything. */
static HRESULT STDMETHODCALLTYPE dbg_QueryInterface(ID3D12Debug *This, REFIID riid, void **out)
{
	return d3d12_debug_get_interface(riid, out);
}
static ULONG STDMETHODCALLTYPE dbg_AddRef(ID3D12Debug *This) { return 2; }
static ULONG STDMETHODCALLTYPE dbg_Release(ID3D12Debug *This) { return 1; }
static void STDMETHODCALLTYPE dbg_EnableDebugLayer(ID3D12Debug *This)
{
	d3d12_debug_layer_requested = true; /* devices created from now on */
}
static const ID3D12DebugVtbl debug_vtbl = {
	XS_D3D12_STUBS_ID3D12Debug,
	.QueryInterface = dbg_QueryInterface, .AddRef = dbg_AddRef, .Release = dbg_Release,
	.EnableDebugLayer = dbg_EnableDebugLayer,
};
static ID3D12Debug debug_object = { &debug_vtbl };

static HRESULT STDMETHODCALLTYPE ds_QueryInterface(ID3D12DeviceRemovedExtendedDataSettings1 *This, REFIID riid,
						   void **out)
{
	return d3d12_debug_get_interface(riid, out);
}
static ULONG STDMETHODCALLTYPE ds_AddRef(ID3D12DeviceRemovedExtendedDataSettings1 *This) { return 2; }
static ULONG STDMETHODCALLTYPE ds_Release(ID3D12DeviceRemovedExtendedDataSettings1 *This) { return 1; }
static void STDMETHODCALLTYPE ds_SetAutoBreadcrumbsEnablement(ID3D12DeviceRemovedExtendedDataSettings1 *This,
							      D3D12_DRED_ENABLEMENT e)
{
	d3d12_dred_breadcrumbs_requested = e == D3D12_DRED_ENABLEMENT_FORCED_ON;
}
static void STDMETHODCALLTYPE ds_SetPageFaultEnablement(ID3D12DeviceRemovedExtendedDataSettings1 *This,
							D3D12_DRED_ENABLEMENT e)
{
	d3d12_dred_page_faults_requested = e == D3D12_DRED_ENABLEMENT_FORCED_ON;
}
static void STDMETHODCALLTYPE ds_SetWatsonDumpEnablement(ID3D12DeviceRemovedExtendedDataSettings1 *This,
							 D3D12_DRED_ENABLEMENT e)
{
	(void)e; /* no Watson here */
}
static void STDMETHODCALLTYPE ds_SetBreadcrumbContextEnablement(ID3D12DeviceRemovedExtendedDataSettings1 *This,
								D3D12_DRED_ENABLEMENT e)
{
	(void)e; /* contexts (SetMarker strings) are not recorded */
}
static const ID3D12DeviceRemovedExtendedDataSettings1Vtbl dred_settings_vtbl = {
	XS_D3D12_STUBS_ID3D12DeviceRemovedExtendedDataSettings1,
	.QueryInterface = ds_QueryInterface, .AddRef = ds_AddRef, .Release = ds_Release,
	.SetAutoBreadcrumbsEnablement = ds_SetAutoBreadcrumbsEnablement,
	.SetPageFaultEnablement = ds_SetPageFaultEnablement, .SetWatsonDumpEnablement = ds_SetWatsonDumpEnablement,
	.SetBreadcrumbContextEnablement = ds_SetBreadcrumbContextEnablement,
};
static ID3D12DeviceRemovedExtendedDataSettings1 dred_settings_object = { &dred_settings_vtbl };

HRESULT d3d12_debug_get_interface(REFIID riid, void **out)
{
	if (!out)
		return E_POINTER;
	if (iid_is(riid, &IID_ID3D12Debug)) {
		*out = &debug_object;
		return S_OK;
	}
	if (iid_is(riid, &IID_ID3D12DeviceRemovedExtendedDataSettings) ||
	    iid_is(riid, &IID_ID3D12DeviceRemovedExtendedDataSettings1)) {
		*out = &dred_settings_object;
		return S_OK;
	}
	if (iid_is(riid, &IID_IUnknown)) {
		*out = &debug_object;
		return S_OK;
	}
	*out = NULL;
	return E_NOINTERFACE;
}

/* The public names of the IDs (d3d12_xs.h) are the runtime's rows. */
_Static_assert(XS12_MESSAGE_ID_SCRATCH_FLAGS == XS_MSG_ID_BASE + XS_MSG_SCRATCH_FLAGS, "message IDs");
_Static_assert(XS12_MESSAGE_ID_END == XS_MSG_ID_BASE + XS_MSG_COUNT, "message IDs");
