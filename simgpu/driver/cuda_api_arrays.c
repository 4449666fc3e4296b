/*
 * CUDA arrays, texture and surface objects of the simulated driver. An
 * array is device memory (taken from the device's capacity, as on a GPU)
 * laid out as rows of Width elements, one row per (y, z), without padding
 * (the real layout is opaque: programs only reach it through copies);
 * cuMemcpy2D* with CU_MEMORYTYPE_ARRAY copies into and out of it
 * (cuda_api_transfer.c asks sim_array_region here). Texture and surface
 * objects are handles that keep their descriptors for the Get* calls;
 * kernels compute nothing, so nothing ever samples them. Never exported
 * beyond cuda.h's entry points; never touches memory contents.
 */
#include "simgpu/driver/driver_internal.h"

#include <stdlib.h>
#include <string.h>

struct CUarray_st {
	CUDA_ARRAY3D_DESCRIPTOR desc;
	void *dev;
	size_t row_bytes, rows;
	struct CUarray_st *next;
};

struct sim_texture_object {
	unsigned long long id;
	int is_surface;
	CUDA_RESOURCE_DESC res;
	CUDA_TEXTURE_DESC tex;
	int has_view;
	CUDA_RESOURCE_VIEW_DESC view;
	struct sim_texture_object *next;
};

/* Arrays and objects: few, listed under their own lock (taken before
   sim_lock, never while holding it). */
static pthread_mutex_t arrays_lock = PTHREAD_MUTEX_INITIALIZER;
static struct CUarray_st *arrays;
static struct sim_texture_object *objects;
static unsigned long long next_object_id = 1;

/* Bytes of one channel of a format; 0 for formats not simulated (block
   compressed, planar video, packed). */
static size_t format_bytes(CUarray_format f)
{
	switch (f) {
	case CU_AD_FORMAT_UNSIGNED_INT8: case CU_AD_FORMAT_SIGNED_INT8: return 1;
	case CU_AD_FORMAT_UNSIGNED_INT16: case CU_AD_FORMAT_SIGNED_INT16:
	case CU_AD_FORMAT_HALF: return 2;
	case CU_AD_FORMAT_UNSIGNED_INT32: case CU_AD_FORMAT_SIGNED_INT32:
	case CU_AD_FORMAT_FLOAT: return 4;
	default: return 0;
	}
}

static int channels_valid(unsigned int n)
{
	return n == 1 || n == 2 || n == 4;
}

static struct CUarray_st *find_array(CUarray a)
{
	for (struct CUarray_st *p = arrays; p; p = p->next)
		if (p == a)
			return p;
	return NULL;
}

int sim_array_region(CUarray array, void **dev, size_t *row_bytes, size_t *rows)
{
	pthread_mutex_lock(&arrays_lock);
	struct CUarray_st *a = find_array(array);
	if (a)
		*dev = a->dev, *row_bytes = a->row_bytes, *rows = a->rows;
	pthread_mutex_unlock(&arrays_lock);
	return a != NULL;
}

#define ARRAY_FLAGS (CUDA_ARRAY3D_LAYERED | CUDA_ARRAY3D_SURFACE_LDST | CUDA_ARRAY3D_CUBEMAP | \
		     CUDA_ARRAY3D_TEXTURE_GATHER)

/*
 * cuda.h's shapes: Width > 0; (W, 0, 0) 1D, (W, H, 0) 2D, (W, H, D) 3D;
 * layered: Depth layers (1D layered: Height 0); cubemap: W == H, Depth 6
 * (a multiple of 6 when layered). Within the device's texture limits
 * (h100_attributes.h). Formats of 1, 2 or 4 channels of the 8/16/32-bit
 * kinds; others CUDA_ERROR_NOT_SUPPORTED. Bad shape, format, channels or
 * flags: CUDA_ERROR_INVALID_VALUE; no memory: CUDA_ERROR_OUT_OF_MEMORY.
 */
static CUresult create(CUarray *out, const CUDA_ARRAY3D_DESCRIPTOR *d)
{
	if (!out || !d || d->Width == 0 || !channels_valid(d->NumChannels) ||
	    (d->Flags & ~(unsigned int)ARRAY_FLAGS))
		return CUDA_ERROR_INVALID_VALUE;
	if (d->Format < CU_AD_FORMAT_UNSIGNED_INT8 || d->Format > CU_AD_FORMAT_UNORM_INT_101010_2)
		if (!format_bytes(d->Format))
			return CUDA_ERROR_INVALID_VALUE;
	size_t channel = format_bytes(d->Format);
	if (!channel)
		return CUDA_ERROR_NOT_SUPPORTED;
	int layered = (d->Flags & CUDA_ARRAY3D_LAYERED) != 0;
	int cubemap = (d->Flags & CUDA_ARRAY3D_CUBEMAP) != 0;
	if (!layered && !cubemap && d->Height == 0 && d->Depth != 0)
		return CUDA_ERROR_INVALID_VALUE;
	if (cubemap && (d->Width != d->Height || d->Depth == 0 || d->Depth % 6 != 0 ||
			(!layered && d->Depth != 6)))
		return CUDA_ERROR_INVALID_VALUE;
	if (layered && d->Depth == 0)
		return CUDA_ERROR_INVALID_VALUE;
	if (d->Width > 131072 || d->Height > 65536 || (!layered && !cubemap && d->Depth > 16384) ||
	    (layered && d->Depth > 2048) ||
	    (d->Depth && !layered && !cubemap && (d->Width > 16384 || d->Height > 16384)))
		return CUDA_ERROR_INVALID_VALUE;
	size_t row_bytes = d->Width * channel * d->NumChannels;
	size_t rows = (d->Height ? d->Height : 1) * (d->Depth ? d->Depth : 1);
	struct CUarray_st *a = calloc(1, sizeof(*a));
	if (!a)
		return CUDA_ERROR_OUT_OF_MEMORY;
	a->desc = *d;
	a->row_bytes = row_bytes;
	a->rows = rows;
	pthread_mutex_lock(&sim_lock);
	cudaError_t err = sim_mem_alloc(row_bytes * rows, SIM_MEM_DEVICE, NULL, &a->dev);
	pthread_mutex_unlock(&sim_lock);
	if (err != cudaSuccess) {
		free(a);
		return sim_cu_result(err);
	}
	pthread_mutex_lock(&arrays_lock);
	a->next = arrays;
	arrays = a;
	pthread_mutex_unlock(&arrays_lock);
	*out = a;
	return CUDA_SUCCESS;
}

CUresult cuArray3DCreate_v2(CUarray *pHandle, const CUDA_ARRAY3D_DESCRIPTOR *pAllocateArray)
{
	DRIVER_ENTER();
	return create(pHandle, pAllocateArray);
}

CUresult cuArrayCreate_v2(CUarray *pHandle, const CUDA_ARRAY_DESCRIPTOR *pAllocateArray)
{
	DRIVER_ENTER();
	if (!pAllocateArray)
		return CUDA_ERROR_INVALID_VALUE;
	CUDA_ARRAY3D_DESCRIPTOR d = {
		.Width = pAllocateArray->Width, .Height = pAllocateArray->Height, .Depth = 0,
		.Format = pAllocateArray->Format, .NumChannels = pAllocateArray->NumChannels,
	};
	return create(pHandle, &d);
}

/* An unknown array: CUDA_ERROR_INVALID_HANDLE (assumed); the memory goes
   back once the device is done with it, as cuMemFree. */
CUresult cuArrayDestroy(CUarray hArray)
{
	DRIVER_ENTER();
	pthread_mutex_lock(&arrays_lock);
	struct CUarray_st **link = &arrays;
	while (*link && *link != hArray)
		link = &(*link)->next;
	struct CUarray_st *a = *link;
	if (a)
		*link = a->next;
	pthread_mutex_unlock(&arrays_lock);
	if (!a)
		return CUDA_ERROR_INVALID_HANDLE;
	cudaError_t err = sim_free_device(a->dev);
	free(a);
	return sim_cu_result(err);
}

CUresult cuArray3DGetDescriptor_v2(CUDA_ARRAY3D_DESCRIPTOR *pArrayDescriptor, CUarray hArray)
{
	DRIVER_ENTER();
	if (!pArrayDescriptor)
		return CUDA_ERROR_INVALID_VALUE;
	pthread_mutex_lock(&arrays_lock);
	struct CUarray_st *a = find_array(hArray);
	if (a)
		*pArrayDescriptor = a->desc;
	pthread_mutex_unlock(&arrays_lock);
	return a ? CUDA_SUCCESS : CUDA_ERROR_INVALID_HANDLE;
}

/* A 3D array has no 2D descriptor: CUDA_ERROR_INVALID_VALUE (cuda.h). */
CUresult cuArrayGetDescriptor_v2(CUDA_ARRAY_DESCRIPTOR *pArrayDescriptor, CUarray hArray)
{
	CUDA_ARRAY3D_DESCRIPTOR d;
	if (!pArrayDescriptor)
		return CUDA_ERROR_INVALID_VALUE;
	CUresult r = cuArray3DGetDescriptor_v2(&d, hArray);
	if (r != CUDA_SUCCESS)
		return r;
	if (d.Depth != 0)
		return CUDA_ERROR_INVALID_VALUE;
	pArrayDescriptor->Width = d.Width;
	pArrayDescriptor->Height = d.Height;
	pArrayDescriptor->Format = d.Format;
	pArrayDescriptor->NumChannels = d.NumChannels;
	return CUDA_SUCCESS;
}

/* ---- texture and surface objects ---- */

/* A resource an object may view: an existing array (a surface: one made
   with CUDA_ARRAY3D_SURFACE_LDST), or linear / pitched device memory of a
   simulated format inside one allocation (pitch a multiple of the texture
   pitch alignment, 32; address aligned to 512, h100_attributes.h). */
static CUresult check_resource(const CUDA_RESOURCE_DESC *r, int surface)
{
	if (r->flags != 0)
		return CUDA_ERROR_INVALID_VALUE;
	switch (r->resType) {
	case CU_RESOURCE_TYPE_ARRAY: {
		pthread_mutex_lock(&arrays_lock);
		struct CUarray_st *a = find_array(r->res.array.hArray);
		int ldst = a && (a->desc.Flags & CUDA_ARRAY3D_SURFACE_LDST);
		pthread_mutex_unlock(&arrays_lock);
		if (!a || (surface && !ldst))
			return CUDA_ERROR_INVALID_VALUE;
		return CUDA_SUCCESS;
	}
	case CU_RESOURCE_TYPE_LINEAR:
	case CU_RESOURCE_TYPE_PITCH2D: {
		if (surface)
			return CUDA_ERROR_INVALID_VALUE;
		int linear = r->resType == CU_RESOURCE_TYPE_LINEAR;
		CUdeviceptr p = linear ? r->res.linear.devPtr : r->res.pitch2D.devPtr;
		CUarray_format f = linear ? r->res.linear.format : r->res.pitch2D.format;
		unsigned int ch = linear ? r->res.linear.numChannels : r->res.pitch2D.numChannels;
		size_t elem = format_bytes(f) * ch;
		if (!elem || !channels_valid(ch) || p % 512 != 0)
			return CUDA_ERROR_INVALID_VALUE;
		size_t extent;
		if (linear) {
			extent = r->res.linear.sizeInBytes;
			if (extent == 0 || extent / elem > 268435456)
				return CUDA_ERROR_INVALID_VALUE;
		} else {
			const __typeof__(r->res.pitch2D) *p2 = &r->res.pitch2D;
			if (p2->width == 0 || p2->height == 0 || p2->pitchInBytes % 32 != 0 ||
			    p2->width * elem > p2->pitchInBytes || p2->width > 131072 ||
			    p2->height > 65000)
				return CUDA_ERROR_INVALID_VALUE;
			extent = p2->pitchInBytes * (p2->height - 1) + p2->width * elem;
		}
		pthread_mutex_lock(&sim_lock);
		const struct sim_alloc *a = sim_mem_find(DPTR(p));
		int inside = a && (size_t)((char *)DPTR(p) - (char *)sim_mem_base(a)) + extent <= a->size;
		pthread_mutex_unlock(&sim_lock);
		return inside ? CUDA_SUCCESS : CUDA_ERROR_INVALID_VALUE;
	}
	case CU_RESOURCE_TYPE_MIPMAPPED_ARRAY:
		return CUDA_ERROR_NOT_SUPPORTED; /* no mipmapped arrays here */
	default:
		return CUDA_ERROR_INVALID_VALUE;
	}
}

static CUresult add_object(unsigned long long *out, int surface, const CUDA_RESOURCE_DESC *res,
			   const CUDA_TEXTURE_DESC *tex, const CUDA_RESOURCE_VIEW_DESC *view)
{
	struct sim_texture_object *o = calloc(1, sizeof(*o));
	if (!o)
		return CUDA_ERROR_OUT_OF_MEMORY;
	o->is_surface = surface;
	o->res = *res;
	if (tex)
		o->tex = *tex;
	if (view)
		o->view = *view, o->has_view = 1;
	pthread_mutex_lock(&arrays_lock);
	o->id = next_object_id++;
	o->next = objects;
	objects = o;
	pthread_mutex_unlock(&arrays_lock);
	*out = o->id;
	return CUDA_SUCCESS;
}

/* Address modes 0..3 (wrap, clamp, mirror, border), filter modes 0..1,
   flags of cuda.h's CU_TRSF_* set. A resource view is kept, not applied. */
CUresult cuTexObjectCreate(CUtexObject *pTexObject, const CUDA_RESOURCE_DESC *pResDesc,
			   const CUDA_TEXTURE_DESC *pTexDesc,
			   const CUDA_RESOURCE_VIEW_DESC *pResViewDesc)
{
	DRIVER_ENTER();
	if (!pTexObject || !pResDesc || !pTexDesc)
		return CUDA_ERROR_INVALID_VALUE;
	const unsigned int known_flags = CU_TRSF_READ_AS_INTEGER | CU_TRSF_NORMALIZED_COORDINATES |
		CU_TRSF_SRGB | CU_TRSF_DISABLE_TRILINEAR_OPTIMIZATION | CU_TRSF_SEAMLESS_CUBEMAP;
	for (int i = 0; i < 3; i++)
		if ((unsigned int)pTexDesc->addressMode[i] > CU_TR_ADDRESS_MODE_BORDER)
			return CUDA_ERROR_INVALID_VALUE;
	if ((unsigned int)pTexDesc->filterMode > CU_TR_FILTER_MODE_LINEAR ||
	    (unsigned int)pTexDesc->mipmapFilterMode > CU_TR_FILTER_MODE_LINEAR ||
	    (pTexDesc->flags & ~known_flags))
		return CUDA_ERROR_INVALID_VALUE;
	CUresult r = check_resource(pResDesc, 0);
	if (r != CUDA_SUCCESS)
		return r;
	return add_object(pTexObject, 0, pResDesc, pTexDesc, pResViewDesc);
}

CUresult cuSurfObjectCreate(CUsurfObject *pSurfObject, const CUDA_RESOURCE_DESC *pResDesc)
{
	DRIVER_ENTER();
	if (!pSurfObject || !pResDesc)
		return CUDA_ERROR_INVALID_VALUE;
	CUresult r = check_resource(pResDesc, 1);
	if (r != CUDA_SUCCESS)
		return r;
	return add_object(pSurfObject, 1, pResDesc, NULL, NULL);
}

/* Removes (destroy) or reads the object id of the kind; 0 when unknown. */
static int with_object(unsigned long long id, int surface, int destroy,
		       struct sim_texture_object *copy)
{
	pthread_mutex_lock(&arrays_lock);
	struct sim_texture_object **link = &objects;
	while (*link && ((*link)->id != id || (*link)->is_surface != surface))
		link = &(*link)->next;
	struct sim_texture_object *o = *link;
	if (o && copy)
		*copy = *o;
	if (o && destroy)
		*link = o->next;
	pthread_mutex_unlock(&arrays_lock);
	if (o && destroy)
		free(o);
	return o != NULL;
}

/* Unknown objects: CUDA_ERROR_INVALID_HANDLE (assumed). */
CUresult cuTexObjectDestroy(CUtexObject texObject)
{
	DRIVER_ENTER();
	return with_object(texObject, 0, 1, NULL) ? CUDA_SUCCESS : CUDA_ERROR_INVALID_HANDLE;
}

CUresult cuSurfObjectDestroy(CUsurfObject surfObject)
{
	DRIVER_ENTER();
	return with_object(surfObject, 1, 1, NULL) ? CUDA_SUCCESS : CUDA_ERROR_INVALID_HANDLE;
}

CUresult cuTexObjectGetResourceDesc(CUDA_RESOURCE_DESC *pResDesc, CUtexObject texObject)
{
	DRIVER_ENTER();
	struct sim_texture_object o;
	if (!pResDesc)
		return CUDA_ERROR_INVALID_VALUE;
	if (!with_object(texObject, 0, 0, &o))
		return CUDA_ERROR_INVALID_HANDLE;
	*pResDesc = o.res;
	return CUDA_SUCCESS;
}

CUresult cuTexObjectGetTextureDesc(CUDA_TEXTURE_DESC *pTexDesc, CUtexObject texObject)
{
	DRIVER_ENTER();
	struct sim_texture_object o;
	if (!pTexDesc)
		return CUDA_ERROR_INVALID_VALUE;
	if (!with_object(texObject, 0, 0, &o))
		return CUDA_ERROR_INVALID_HANDLE;
	*pTexDesc = o.tex;
	return CUDA_SUCCESS;
}

/* An object made without a view: CUDA_ERROR_INVALID_VALUE (assumed). */
CUresult cuTexObjectGetResourceViewDesc(CUDA_RESOURCE_VIEW_DESC *pResViewDesc,
					CUtexObject texObject)
{
	DRIVER_ENTER();
	struct sim_texture_object o;
	if (!pResViewDesc)
		return CUDA_ERROR_INVALID_VALUE;
	if (!with_object(texObject, 0, 0, &o))
		return CUDA_ERROR_INVALID_HANDLE;
	if (!o.has_view)
		return CUDA_ERROR_INVALID_VALUE;
	*pResViewDesc = o.view;
	return CUDA_SUCCESS;
}

CUresult cuSurfObjectGetResourceDesc(CUDA_RESOURCE_DESC *pResDesc, CUsurfObject surfObject)
{
	DRIVER_ENTER();
	struct sim_texture_object o;
	if (!pResDesc)
		return CUDA_ERROR_INVALID_VALUE;
	if (!with_object(surfObject, 1, 0, &o))
		return CUDA_ERROR_INVALID_HANDLE;
	*pResDesc = o.res;
	return CUDA_SUCCESS;
}
