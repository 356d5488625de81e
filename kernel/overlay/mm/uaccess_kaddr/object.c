// SPDX-License-Identifier: GPL-2.0
/*
 * What memory a bogus "user" pointer reaches, for the report of a mapped
 * kernel address: the slab object (cache, start, offset), the vmalloc
 * area, the stack of the task that made the access, a variable, or a page;
 * on a KASAN kernel, whether KASAN considers the bytes accessible: a
 * redzone or a freed object makes the bug a heap overflow or a
 * use-after-free as well.
 *
 * Taken at the hit, as KASAN takes its own at the faulting access: the
 * report is printed later, by the drain work, when the object may have
 * been freed or reused, and its slab or cache may be gone (the cache's
 * name is copied).  Only what needs process context is looked up then,
 * and the report says so: a vmalloc area's bounds and owner (its lookup
 * takes a lock), the allocation and free stacks, KASAN's description (but
 * of a vmalloc area freed since, whose shadow goes with it).
 */

#include <linux/kasan.h>
#include <linux/kfence.h>
#include <linux/kallsyms.h>
#include <linux/mm.h>
#include <linux/module.h>
#include <linux/printk.h>
#include <linux/slab.h>
#include <linux/uaccess.h>
#include <linux/vmalloc.h>

#include "../slab.h"
#include "uaccess_kaddr.h"

/*
 * The slab may be freed and its page reused while this runs, under the
 * queue's lock with interrupts off: the cache is read only through a
 * pointer that the page still gives after the reads, and its name with a
 * nofault copy, so that a race gives a wrong description, never a fault.
 */
static void uk_snapshot_slab(const void *p, struct uk_object *obj)
{
	struct slab *slab = virt_to_slab(p);
	unsigned int object_size, size, red_left_pad, objects;
	struct kmem_cache *s;
	unsigned long idx;
	slab_flags_t flags;
	const char *name;
	void *base;

	if (!slab)
		return;
	s = READ_ONCE(slab->slab_cache);
	if (!s || ((unsigned long)s & 1) ||
	    get_kernel_nofault(name, &s->name) ||
	    get_kernel_nofault(object_size, &s->object_size) ||
	    get_kernel_nofault(size, &s->size) ||
	    get_kernel_nofault(flags, &s->flags) || !size ||
	    strncpy_from_kernel_nofault(obj->cache, name,
					sizeof(obj->cache)) < 0)
		return;
	obj->kfence = is_kfence_address(p);
	if (obj->kfence) {
		obj->start = (unsigned long)kfence_object_start(p);
		obj->size = kfence_ksize(p) ?: object_size;
	} else {
		/* nearest_obj(), from the copied fields: no read through @s. */
		base = slab_address(slab);
		/* A slab being freed meanwhile gives a wrong bound, no fault. */
		objects = data_race((unsigned int)slab->objects);
		idx = min_t(unsigned long, (p - base) / size,
			    objects ? objects - 1 : 0);
		obj->start = (unsigned long)base + idx * size;
		if ((flags & SLAB_RED_ZONE) &&
		    !get_kernel_nofault(red_left_pad, &s->red_left_pad))
			obj->start += red_left_pad;
		obj->size = object_size;
	}
	/* KFENCE records the allocation and free stacks of its objects. */
	obj->store_user = obj->kfence || (flags & SLAB_STORE_USER);
	if (virt_to_slab(p) != slab || READ_ONCE(slab->slab_cache) != s) {
		memset(obj->cache, 0, sizeof(obj->cache));
		return;
	}
	obj->region = UK_REGION_SLAB;
}

/*
 * KFENCE protects the page of a free object and the guard page beside each
 * object: a hit there is on an unmapped address that KFENCE can still
 * name, and that KFENCE itself never reports (a uaccess fixup handles the
 * fault first).  A guard page is described by the nearer of the objects on
 * its two sides, as KFENCE describes an out-of-bounds access.
 */
static void uk_snapshot_kfence(const void *p, struct uk_object *obj)
{
	unsigned long addr = (unsigned long)p, left, right;

	if (virt_to_slab(p)) {
		uk_snapshot_slab(p, obj);
		return;
	}
	left = (unsigned long)kfence_object_start(p);
	right = (unsigned long)kfence_object_start(p + PAGE_SIZE);
	if (!left || (right && right - addr <
			       addr - left - kfence_ksize((void *)left)))
		left = right;
	if (left)
		uk_snapshot_slab((void *)left, obj);
	obj->kfence = true;
	obj->region = UK_REGION_KFENCE_GUARD;
}

/**
 * uk_snapshot_object - what the address of an event reaches, at the hit
 * @ev: the event, its address classified; @ev->obj is filled in, region
 *	UK_REGION_NONE unless the address is mapped or KFENCE's
 *
 * Reads struct slab, struct page and KASAN's shadow, takes no lock.  Any
 * context but NMI: an NMI's event is classified, then described, by the
 * irq_work that follows it on the same CPU.
 */
void uk_snapshot_object(struct uk_event *ev)
{
	struct uk_object *obj = &ev->obj;
	const void *p = (const void *)ev->addr;
	const void *bad;

	memset(obj, 0, sizeof(*obj));
	if (ev->addr_class == UKADDR_CLASS_KERNEL_UNMAPPED &&
	    is_kfence_address(p)) {
		uk_snapshot_kfence(p, obj);
		return;
	}
	if (ev->addr_class != UKADDR_CLASS_KERNEL_MAPPED)
		return;

	if (ev->on_stack) {
		obj->region = UK_REGION_TASK_STACK;
	} else if (is_kernel(ev->addr) || is_module_address(ev->addr)) {
		obj->region = UK_REGION_IMAGE;
	} else if (is_vmalloc_addr(p)) {
		obj->region = UK_REGION_VMALLOC;
	} else if (virt_addr_valid(p)) {
		uk_snapshot_slab(p, obj);
		if (obj->region == UK_REGION_NONE) {
			struct folio *folio = virt_to_folio(p);

			obj->region = UK_REGION_PAGE;
			obj->start = (unsigned long)folio_address(folio);
			obj->size = folio_size(folio);
		}
	}
	/*
	 * The first bad byte of a page is enough for the verdict, and bounds
	 * the shadow scan done with interrupts off.
	 */
	obj->kasan_bug = kasan_access_bug_type(p, clamp(ev->size, 1UL, PAGE_SIZE),
					       &bad);
	obj->kasan_bad = (unsigned long)bad;
}

/* Where the address is, inside or beside the object. */
static void uk_print_offset(const struct uk_event *ev,
			    const struct uk_object *obj)
{
	unsigned long offset = ev->addr - obj->start;

	if (offset < obj->size)
		pr_err("The address is located %lu bytes inside of the %lu-byte region [0x%lx, 0x%lx)\n",
		       offset, obj->size, obj->start, obj->start + obj->size);
	else if (ev->addr < obj->start)
		pr_err("The address is located %lu bytes to the left of the %lu-byte region [0x%lx, 0x%lx)\n",
		       obj->start - ev->addr, obj->size, obj->start,
		       obj->start + obj->size);
	else
		pr_err("The address is located %lu bytes to the right of the %lu-byte region [0x%lx, 0x%lx)\n",
		       offset - obj->size, obj->size, obj->start,
		       obj->start + obj->size);
}

static void uk_print_slab(const struct uk_event *ev,
			  const struct uk_object *obj)
{
	const char *kfence = !obj->kfence ? "" :
			     ev->addr_class == UKADDR_CLASS_KERNEL_MAPPED ?
			     " (a KFENCE object)" :
			     " (a freed KFENCE object: KFENCE protects its page)";

	pr_err("The address belongs to the object at 0x%lx which belongs to the cache %s of size %lu%s\n",
	       obj->start, obj->cache, obj->size, kfence);
	uk_print_offset(ev, obj);
}

static void uk_print_kfence_guard(const struct uk_event *ev,
				  const struct uk_object *obj)
{
	if (!obj->size) {
		pr_err("The address is on a guard page of KFENCE's pool, beside no object in use\n");
		return;
	}
	pr_err("The address is on a guard page of KFENCE's pool, beside the object at 0x%lx which belongs to the cache %s of size %lu\n",
	       obj->start, obj->cache, obj->size);
	uk_print_offset(ev, obj);
}

/*
 * Whether an area holds the address now.  find_vm_area() drops its lock
 * before it returns, and the area may be freed then: it is read with a
 * nofault copy and checked against the address, so that a race gives a
 * stale description, never a fault.  (vmalloc_dump_obj() does its copy
 * under the lock, but looks in the vmap node of the address only, and
 * misses an area whose start is in another.)
 */
static bool uk_print_vmalloc(const struct uk_event *ev, struct uk_object *obj)
{
	struct vm_struct *vm = find_vm_area((void *)ev->addr);
	struct vm_struct copy;

	if (!vm || copy_from_kernel_nofault(&copy, vm, sizeof(copy)) ||
	    ev->addr - (unsigned long)copy.addr >= get_vm_area_size(&copy)) {
		pr_err("The address is in the vmalloc space; no area holds it now\n");
		return false;
	}
	obj->start = (unsigned long)copy.addr;
	obj->size = get_vm_area_size(&copy);
	obj->caller = copy.caller;
	pr_err("The address belongs to the %lu-byte vmalloc area [0x%lx, 0x%lx) allocated at %pS (looked up after the hit)\n",
	       obj->size, obj->start, obj->start + obj->size, obj->caller);
	return true;
}

#if defined(CONFIG_KASAN_GENERIC) || defined(CONFIG_KASAN_SW_TAGS)
/*
 * Is KASAN's shadow of the memory around @addr still there?  That of the
 * vmalloc and module space (vmap'd stacks included) is freed with the
 * memory, maybe since the hit; KASAN prints a few rows of it on each side
 * of the first bad byte.  The walk runs with interrupts off (see
 * uk_classify()); the memory may still go between it and the print, a
 * window that the description after the hit has anyway.
 */
static bool uk_shadow_mapped(unsigned long addr, unsigned long size)
{
	const unsigned long around = 512;
	unsigned long at[] = { addr - around, addr, addr + size + around };
	unsigned long flags;
	unsigned int level, i;
	bool mapped = true;
	pte_t *pte;

	if (!is_vmalloc_or_module_addr((void *)addr))
		return true;
	local_irq_save(flags);
	for (i = 0; i < ARRAY_SIZE(at) && mapped; i++) {
		pte = lookup_address((unsigned long)kasan_mem_to_shadow((void *)at[i]),
				     &level);
		mapped = pte && (pte_flags(*pte) & _PAGE_PRESENT);
	}
	local_irq_restore(flags);
	return mapped;
}
#else
static bool uk_shadow_mapped(unsigned long addr, unsigned long size)
{
	return true;
}
#endif

/*
 * What only process context can look up, after the hit.  @gone: the
 * vmalloc area that the address was in is no longer there.
 */
static void uk_print_later(const struct uk_event *ev,
			   const struct uk_object *obj, bool gone)
{
	if (obj->kfence) {
		if (obj->start) {
			pr_err("KFENCE's record of the object, read after the hit:");
			kmem_dump_obj((void *)obj->start);
		}
		return;
	}
	if (IS_ENABLED(CONFIG_KASAN) &&
	    (gone || !uk_shadow_mapped(ev->addr, ev->size ?: 1))) {
		pr_err("(no KASAN description after the hit: the memory and its shadow are gone)\n");
		return;
	}
	if (IS_ENABLED(CONFIG_KASAN)) {
		pr_err("\n");
		pr_err("KASAN's description, made after the hit (the memory may have been freed or reused since):\n");
		kasan_describe_address((void *)ev->addr, ev->size ?: 1);
		return;
	}
	if (obj->region == UK_REGION_SLAB && obj->store_user) {
		pr_err("The slab allocator's record, read after the hit:");
		kmem_dump_obj((void *)ev->addr);
	} else if (obj->region == UK_REGION_SLAB) {
		pr_err("(no allocation stack recorded: boot with slab_debug=U,%s for it)\n",
		       obj->cache);
	} else if (obj->region == UK_REGION_PAGE) {
		dump_page(virt_to_page((void *)ev->addr),
			  "uaccess-kaddr, after the hit");
	}
}

/**
 * uk_print_object - print what an event's address reached, inside a report
 * @ev: the event
 * @obj: a copy of @ev->obj, completed with what is looked up now
 *
 * Process context (the drain work).
 */
void uk_print_object(const struct uk_event *ev, struct uk_object *obj)
{
	bool gone = false;

	if (ev->addr_class != UKADDR_CLASS_KERNEL_MAPPED && !obj->kfence)
		return;
	pr_err("\n");
	pr_err("Memory at the address when it was hit:\n");

	switch (obj->region) {
	case UK_REGION_TASK_STACK:
		pr_err("The address is on the stack of the task that made the access (%s/%d)\n",
		       ev->comm, ev->pid);
		break;
	case UK_REGION_IMAGE:
		pr_err("The address belongs to the kernel or module image:\n");
		pr_err(" %pS\n", (void *)ev->addr);
		break;
	case UK_REGION_SLAB:
		uk_print_slab(ev, obj);
		break;
	case UK_REGION_VMALLOC:
		gone = !uk_print_vmalloc(ev, obj);
		break;
	case UK_REGION_KFENCE_GUARD:
		uk_print_kfence_guard(ev, obj);
		break;
	case UK_REGION_PAGE:
		pr_err("The address belongs to the page allocator's %lu-byte block at 0x%lx\n",
		       obj->size, obj->start);
		break;
	default:
		pr_err("(no owner found)\n");
		break;
	}
	/* KASAN's shadow of an unmapped KFENCE page was never read. */
	if (IS_ENABLED(CONFIG_KASAN) &&
	    ev->addr_class == UKADDR_CLASS_KERNEL_MAPPED) {
		if (obj->kasan_bug)
			pr_err("Shadow memory: byte 0x%lx of the range is not accessible (%s): the bug is a %s as well\n",
			       obj->kasan_bad, obj->kasan_bug, obj->kasan_bug);
		else
			pr_err("Shadow memory: every byte of the range is accessible\n");
	}
	uk_print_later(ev, obj, gone);
}
