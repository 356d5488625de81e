// SPDX-License-Identifier: GPL-2.0
/*
 * What memory a bogus "user" pointer reaches, for the report of a mapped
 * kernel address: the slab object (cache, start, offset), the vmalloc
 * area, the stack of the task that made the access, a variable, or a page;
 * on a KASAN kernel, KASAN's own description with its allocation and free
 * stacks, and whether KASAN considers the bytes accessible: a redzone or a
 * freed object makes the bug a heap overflow or a use-after-free as well.
 *
 * Looked up from the drain work, after the hit: the pre-access check
 * refused the access, but the object may have been freed or reused since.
 * Best effort, and the report says so.
 */

#include <linux/kasan.h>
#include <linux/kfence.h>
#include <linux/kallsyms.h>
#include <linux/mm.h>
#include <linux/module.h>
#include <linux/printk.h>
#include <linux/slab.h>
#include <linux/vmalloc.h>

#include "../slab.h"
#include "uaccess_kaddr.h"

static void uk_describe_slab(const void *p, struct uk_object *obj)
{
	struct slab *slab = virt_to_slab(p);
	struct kmem_cache *s;

	if (!slab || !slab->slab_cache)
		return;
	s = slab->slab_cache;
	obj->region = UK_REGION_SLAB;
	obj->cache = s->name;
	obj->kfence = is_kfence_address(p);
	if (obj->kfence) {
		obj->start = (unsigned long)kfence_object_start(p);
		obj->size = kfence_ksize(p) ?: s->object_size;
	} else {
		obj->start = (unsigned long)nearest_obj(s, slab, (void *)p);
		obj->size = s->object_size;
	}
	obj->store_user = s->flags & SLAB_STORE_USER;
}

/**
 * uk_describe_object - look up what the address of an event reaches
 * @ev: the event
 * @obj: filled in; region UK_REGION_NONE unless @ev's address is mapped
 *
 * Process context.
 */
void uk_describe_object(const struct uk_event *ev, struct uk_object *obj)
{
	const void *p = (const void *)ev->addr;
	struct vm_struct *vm;

	memset(obj, 0, sizeof(*obj));
	if (ev->addr_class != UKADDR_CLASS_KERNEL_MAPPED)
		return;

	if (ev->on_stack) {
		obj->region = UK_REGION_TASK_STACK;
	} else if (is_kernel(ev->addr) || is_module_address(ev->addr)) {
		obj->region = UK_REGION_IMAGE;
	} else if (is_vmalloc_addr(p)) {
		vm = find_vm_area(p);
		if (vm) {
			obj->region = UK_REGION_VMALLOC;
			obj->start = (unsigned long)vm->addr;
			obj->size = get_vm_area_size(vm);
			obj->caller = vm->caller;
		}
	} else if (virt_addr_valid(p)) {
		uk_describe_slab(p, obj);
		if (obj->region == UK_REGION_NONE) {
			struct folio *folio = virt_to_folio(p);

			obj->region = UK_REGION_PAGE;
			obj->start = (unsigned long)folio_address(folio);
			obj->size = folio_size(folio);
		}
	}
}

static void uk_print_slab(const struct uk_event *ev,
			  const struct uk_object *obj)
{
	unsigned long offset = ev->addr - obj->start;

	pr_err("The address belongs to the object at 0x%lx which belongs to the cache %s of size %lu%s\n",
	       obj->start, obj->cache, obj->size,
	       obj->kfence ? " (a KFENCE object)" : "");
	if (offset < obj->size)
		pr_err("The address is located %lu bytes inside of the %lu-byte region [0x%lx, 0x%lx)\n",
		       offset, obj->size, obj->start, obj->start + obj->size);
	else
		pr_err("The address is located %lu bytes to the right of the %lu-byte region [0x%lx, 0x%lx)\n",
		       offset - obj->size, obj->size, obj->start,
		       obj->start + obj->size);
	if (obj->store_user) {
		pr_err("The slab allocator recorded:");
		kmem_dump_obj((void *)ev->addr);
	} else {
		pr_err("(no allocation stack recorded: boot with slab_debug=U,%s for it)\n",
		       obj->cache);
	}
}

/**
 * uk_print_object - print what uk_describe_object() found, inside a report
 * @ev: the event
 * @obj: what uk_describe_object() found for it; on a KASAN kernel, KASAN's
 *	 verdict is added
 */
void uk_print_object(const struct uk_event *ev, struct uk_object *obj)
{
	if (ev->addr_class != UKADDR_CLASS_KERNEL_MAPPED)
		return;
	pr_err("\n");
	pr_err("Memory at the address, looked up after the hit (it may have been freed or reused since):\n");

	if (obj->region == UK_REGION_TASK_STACK)
		pr_err("The address is on the stack of the task that made the access (%s/%d)\n",
		       ev->comm, ev->pid);

	if (IS_ENABLED(CONFIG_KASAN)) {
		const void *bad;

		obj->kasan_bug = kasan_describe_address((void *)ev->addr,
							ev->size ?: 1, &bad);
		if (obj->kasan_bug)
			pr_err("Shadow memory: byte 0x%lx of the range is not accessible (%s): the bug is a %s as well\n",
			       (unsigned long)bad, obj->kasan_bug, obj->kasan_bug);
		else
			pr_err("Shadow memory: every byte of the range is accessible\n");
		return;
	}

	switch (obj->region) {
	case UK_REGION_IMAGE:
		pr_err("The address belongs to the kernel or module image:\n");
		pr_err(" %pS\n", (void *)ev->addr);
		break;
	case UK_REGION_SLAB:
		uk_print_slab(ev, obj);
		break;
	case UK_REGION_VMALLOC:
		pr_err("The address belongs to the %lu-byte vmalloc area [0x%lx, 0x%lx) allocated at %pS\n",
		       obj->size, obj->start, obj->start + obj->size,
		       obj->caller);
		break;
	case UK_REGION_PAGE:
		pr_err("The address belongs to the page allocator's %lu-byte block at 0x%lx:\n",
		       obj->size, obj->start);
		dump_page(virt_to_page((void *)ev->addr), "uaccess-kaddr");
		break;
	case UK_REGION_TASK_STACK:
		break;
	default:
		pr_err("(no owner found)\n");
		break;
	}
}
