/*
 * CUDA arrays, channel descriptors, texture and surface objects of the
 * simulated runtime, each through the driver's call (driver/
 * cuda_api_arrays.c: cuArray3DCreate_v2, cuMemcpy2D_v2 with an array side,
 * cuTexObjectCreate, ...), converting the runtime's descriptors to the
 * driver's and back. Host-side bookkeeping and copies: kernels compute
 * nothing, so nothing ever samples a texture. Keeps no state of its own.
 */
#include "simgpu/cudart/cudart_internal.h"

#include <stdint.h>
#include <string.h>

struct cudaChannelFormatDesc CUDARTAPI cudaCreateChannelDesc(int x, int y, int z, int w,
							      enum cudaChannelFormatKind f)
{
	struct cudaChannelFormatDesc desc = { x, y, z, w, f };
	return desc;
}

/* ---- channel descriptor <-> driver format ---- */

/*
 * The driver format of a channel descriptor: 1, 2 or 4 channels of equal
 * width (x, then y, z, w), signed / unsigned 8, 16, 32 bits or float 16,
 * 32. Anything else: cudaErrorInvalidChannelDescriptor.
 */
static cudaError_t to_format(const struct cudaChannelFormatDesc *d, CUarray_format *format,
			     unsigned int *channels)
{
	if (!d)
		return cudaErrorInvalidValue;
	int bits = d->x, n = 0;
	const int comps[4] = { d->x, d->y, d->z, d->w };
	for (int i = 0; i < 4; i++) {
		if (comps[i] == 0)
			break;
		if (comps[i] != bits)
			return cudaErrorInvalidChannelDescriptor;
		n++;
	}
	for (int i = n; i < 4; i++)
		if (comps[i] != 0)
			return cudaErrorInvalidChannelDescriptor;
	if (n != 1 && n != 2 && n != 4)
		return cudaErrorInvalidChannelDescriptor;
	switch (d->f) {
	case cudaChannelFormatKindSigned:
		*format = bits == 8 ? CU_AD_FORMAT_SIGNED_INT8 : bits == 16 ? CU_AD_FORMAT_SIGNED_INT16
			: bits == 32 ? CU_AD_FORMAT_SIGNED_INT32 : (CUarray_format)0;
		break;
	case cudaChannelFormatKindUnsigned:
		*format = bits == 8 ? CU_AD_FORMAT_UNSIGNED_INT8 : bits == 16 ? CU_AD_FORMAT_UNSIGNED_INT16
			: bits == 32 ? CU_AD_FORMAT_UNSIGNED_INT32 : (CUarray_format)0;
		break;
	case cudaChannelFormatKindFloat:
		*format = bits == 16 ? CU_AD_FORMAT_HALF : bits == 32 ? CU_AD_FORMAT_FLOAT
			: (CUarray_format)0;
		break;
	default:
		*format = (CUarray_format)0;
	}
	if (*format == 0)
		return cudaErrorInvalidChannelDescriptor;
	*channels = (unsigned int)n;
	return cudaSuccess;
}

static struct cudaChannelFormatDesc from_format(CUarray_format format, unsigned int channels)
{
	int bits = 0;
	enum cudaChannelFormatKind kind = cudaChannelFormatKindNone;
	switch (format) {
	case CU_AD_FORMAT_SIGNED_INT8: bits = 8, kind = cudaChannelFormatKindSigned; break;
	case CU_AD_FORMAT_SIGNED_INT16: bits = 16, kind = cudaChannelFormatKindSigned; break;
	case CU_AD_FORMAT_SIGNED_INT32: bits = 32, kind = cudaChannelFormatKindSigned; break;
	case CU_AD_FORMAT_UNSIGNED_INT8: bits = 8, kind = cudaChannelFormatKindUnsigned; break;
	case CU_AD_FORMAT_UNSIGNED_INT16: bits = 16, kind = cudaChannelFormatKindUnsigned; break;
	case CU_AD_FORMAT_UNSIGNED_INT32: bits = 32, kind = cudaChannelFormatKindUnsigned; break;
	case CU_AD_FORMAT_HALF: bits = 16, kind = cudaChannelFormatKindFloat; break;
	case CU_AD_FORMAT_FLOAT: bits = 32, kind = cudaChannelFormatKindFloat; break;
	default: break;
	}
	struct cudaChannelFormatDesc d = {
		bits, channels > 1 ? bits : 0, channels > 2 ? bits : 0, channels > 3 ? bits : 0, kind
	};
	return d;
}

/* ---- arrays ---- */

/* The runtime's array flags are the driver's CUDA_ARRAY3D_* values. */
#define RUNTIME_ARRAY_FLAGS (cudaArrayLayered | cudaArraySurfaceLoadStore | cudaArrayCubemap | \
			     cudaArrayTextureGather)

static cudaError_t malloc_array(cudaArray_t *array, const struct cudaChannelFormatDesc *desc,
				size_t width, size_t height, size_t depth, unsigned int flags)
{
	ENTER();
	if (!array || (flags & ~(unsigned int)RUNTIME_ARRAY_FLAGS))
		return sim_return(cudaErrorInvalidValue);
	CUDA_ARRAY3D_DESCRIPTOR d;
	memset(&d, 0, sizeof(d));
	cudaError_t err = to_format(desc, &d.Format, &d.NumChannels);
	if (err != cudaSuccess)
		return sim_return(err);
	d.Width = width, d.Height = height, d.Depth = depth, d.Flags = flags;
	CUarray a = NULL;
	err = cudart_error(cudart_drv.array_3d_create(&a, &d));
	if (err == cudaSuccess)
		*array = (cudaArray_t)a;
	return sim_return(err);
}

cudaError_t cudaMallocArray(cudaArray_t *array, const struct cudaChannelFormatDesc *desc,
			    size_t width, size_t height, unsigned int flags)
{
	return malloc_array(array, desc, width, height, 0, flags);
}

cudaError_t cudaMalloc3DArray(cudaArray_t *array, const struct cudaChannelFormatDesc *desc,
			      struct cudaExtent extent, unsigned int flags)
{
	return malloc_array(array, desc, extent.width, extent.height, extent.depth, flags);
}

/* NULL: nothing to free (cuda_runtime_api.h). */
cudaError_t cudaFreeArray(cudaArray_t array)
{
	ENTER();
	if (!array)
		return cudaSuccess;
	return sim_return(cudart_error(cudart_drv.array_destroy((CUarray)array)));
}

cudaError_t cudaArrayGetInfo(struct cudaChannelFormatDesc *desc, struct cudaExtent *extent,
			     unsigned int *flags, cudaArray_t array)
{
	ENTER();
	CUDA_ARRAY3D_DESCRIPTOR d;
	cudaError_t err = cudart_error(cudart_drv.array_3d_get_descriptor(&d, (CUarray)array));
	if (err != cudaSuccess)
		return sim_return(err);
	if (desc)
		*desc = from_format(d.Format, d.NumChannels);
	if (extent)
		extent->width = d.Width, extent->height = d.Height, extent->depth = d.Depth;
	if (flags)
		*flags = d.Flags;
	return cudaSuccess;
}

cudaError_t cudaGetChannelDesc(struct cudaChannelFormatDesc *desc, cudaArray_const_t array)
{
	ENTER();
	if (!desc)
		return sim_return(cudaErrorInvalidValue);
	return cudaArrayGetInfo(desc, NULL, NULL, (cudaArray_t)array);
}

/* ---- copies into and out of arrays: cuMemcpy2D with an array side ---- */

/*
 * A rectangle of width bytes x height rows between linear memory (mem,
 * pitch; its side given by kind as for cudaMemcpy2D) and an array at byte
 * offset wOffset, row hOffset. to_array: into the array. A kind that
 * points the wrong way for the linear side (host memory as a source read
 * by DeviceToHost...) is cudaErrorInvalidMemcpyDirection.
 */
static cudaError_t array_copy(cudaArray_const_t array, size_t wOffset, size_t hOffset,
			      void *mem, size_t pitch, size_t width, size_t height,
			      enum cudaMemcpyKind kind, int to_array, cudaStream_t stream,
			      int per_thread, int is_async)
{
	ENTER();
	if ((unsigned int)kind > cudaMemcpyDefault)
		return sim_return(cudaErrorInvalidMemcpyDirection);
	if (height > 1 && width > pitch)
		return sim_return(cudaErrorInvalidPitchValue);
	/* The linear side as cudaMemcpy2D reads the kind; the kind must
	 * name the array's side device memory (or be cudaMemcpyDefault). */
	if (cudart_copy_side_type(kind, !to_array) == CU_MEMORYTYPE_HOST)
		return sim_return(cudaErrorInvalidMemcpyDirection);
	CUDA_MEMCPY2D c;
	memset(&c, 0, sizeof(c));
	c.WidthInBytes = width;
	c.Height = height;
	cudart_copy_2d_side(&c, to_array, cudart_copy_side_type(kind, to_array), mem, pitch);
	if (to_array) {
		c.dstMemoryType = CU_MEMORYTYPE_ARRAY, c.dstArray = (CUarray)array;
		c.dstXInBytes = wOffset, c.dstY = hOffset;
	} else {
		c.srcMemoryType = CU_MEMORYTYPE_ARRAY, c.srcArray = (CUarray)array;
		c.srcXInBytes = wOffset, c.srcY = hOffset;
	}
	if (!array)
		return sim_return(cudaErrorInvalidValue);
	const struct cudart_driver *drv = cudart_driver_for(per_thread);
	return sim_return(cudart_error(is_async ? drv->memcpy_2d_async(&c, stream)
						: drv->memcpy_2d(&c)));
}

/*
 * The deprecated 1D forms: count bytes from (wOffset, hOffset) on, row
 * after row (the array's rows are width x element bytes): at most a
 * partial first row, whole rows, a partial last row.
 */
static cudaError_t array_copy_1d(cudaArray_const_t array, size_t wOffset, size_t hOffset,
				 void *mem, size_t count, enum cudaMemcpyKind kind, int to_array,
				 cudaStream_t stream, int per_thread, int is_async)
{
	ENTER();
	CUDA_ARRAY3D_DESCRIPTOR d;
	cudaError_t err = cudart_error(cudart_drv.array_3d_get_descriptor(&d, (CUarray)array));
	if (err != cudaSuccess)
		return sim_return(err == cudaErrorInvalidResourceHandle ? cudaErrorInvalidValue : err);
	struct cudaChannelFormatDesc f = from_format(d.Format, d.NumChannels);
	size_t row = d.Width * (size_t)((f.x + f.y + f.z + f.w) / 8);
	uint8_t *p = mem;
	while (err == cudaSuccess && count > 0) {
		size_t chunk, rows = 1;
		if (wOffset == 0 && count >= row) {
			rows = count / row;
			chunk = row;
		} else {
			chunk = wOffset < row && count > row - wOffset ? row - wOffset : count;
		}
		err = array_copy(array, wOffset, hOffset, p, chunk, chunk, rows, kind, to_array,
				 stream, per_thread, is_async);
		p += chunk * rows, count -= chunk * rows;
		wOffset = (wOffset + chunk) % row;
		hOffset += rows - 1 + (wOffset == 0);
	}
	return err;
}

#define ARRAY_COPY(cbid, ...) RUNTIME_CALL(RT_CBID(cbid), 1, array_copy(__VA_ARGS__))
#define ARRAY_COPY_1D(cbid, ...) RUNTIME_CALL(RT_CBID(cbid), 1, array_copy_1d(__VA_ARGS__))

cudaError_t cudaMemcpy2DToArray(cudaArray_t dst, size_t wOffset, size_t hOffset, const void *src,
				size_t spitch, size_t width, size_t height,
				enum cudaMemcpyKind kind)
{
	ARRAY_COPY(cudaMemcpy2DToArray_v3020, dst, wOffset, hOffset, (void *)src, spitch, width,
		   height, kind, 1, NULL, 0, 0);
}

cudaError_t cudaMemcpy2DToArray_ptds(cudaArray_t dst, size_t wOffset, size_t hOffset,
				     const void *src, size_t spitch, size_t width, size_t height,
				     enum cudaMemcpyKind kind)
{
	ARRAY_COPY(cudaMemcpy2DToArray_ptds_v7000, dst, wOffset, hOffset, (void *)src, spitch,
		   width, height, kind, 1, NULL, 1, 0);
}

cudaError_t cudaMemcpy2DToArrayAsync(cudaArray_t dst, size_t wOffset, size_t hOffset,
				     const void *src, size_t spitch, size_t width, size_t height,
				     enum cudaMemcpyKind kind, cudaStream_t stream)
{
	ARRAY_COPY(cudaMemcpy2DToArrayAsync_v3020, dst, wOffset, hOffset, (void *)src, spitch,
		   width, height, kind, 1, stream, 0, 1);
}

cudaError_t cudaMemcpy2DToArrayAsync_ptsz(cudaArray_t dst, size_t wOffset, size_t hOffset,
					  const void *src, size_t spitch, size_t width,
					  size_t height, enum cudaMemcpyKind kind,
					  cudaStream_t stream)
{
	ARRAY_COPY(cudaMemcpy2DToArrayAsync_ptsz_v7000, dst, wOffset, hOffset, (void *)src,
		   spitch, width, height, kind, 1, stream, 1, 1);
}

cudaError_t cudaMemcpy2DFromArray(void *dst, size_t dpitch, cudaArray_const_t src, size_t wOffset,
				  size_t hOffset, size_t width, size_t height,
				  enum cudaMemcpyKind kind)
{
	ARRAY_COPY(cudaMemcpy2DFromArray_v3020, src, wOffset, hOffset, dst, dpitch, width, height,
		   kind, 0, NULL, 0, 0);
}

cudaError_t cudaMemcpy2DFromArray_ptds(void *dst, size_t dpitch, cudaArray_const_t src,
				       size_t wOffset, size_t hOffset, size_t width,
				       size_t height, enum cudaMemcpyKind kind)
{
	ARRAY_COPY(cudaMemcpy2DFromArray_ptds_v7000, src, wOffset, hOffset, dst, dpitch, width,
		   height, kind, 0, NULL, 1, 0);
}

cudaError_t cudaMemcpy2DFromArrayAsync(void *dst, size_t dpitch, cudaArray_const_t src,
				       size_t wOffset, size_t hOffset, size_t width,
				       size_t height, enum cudaMemcpyKind kind,
				       cudaStream_t stream)
{
	ARRAY_COPY(cudaMemcpy2DFromArrayAsync_v3020, src, wOffset, hOffset, dst, dpitch, width,
		   height, kind, 0, stream, 0, 1);
}

cudaError_t cudaMemcpy2DFromArrayAsync_ptsz(void *dst, size_t dpitch, cudaArray_const_t src,
					    size_t wOffset, size_t hOffset, size_t width,
					    size_t height, enum cudaMemcpyKind kind,
					    cudaStream_t stream)
{
	ARRAY_COPY(cudaMemcpy2DFromArrayAsync_ptsz_v7000, src, wOffset, hOffset, dst, dpitch,
		   width, height, kind, 0, stream, 1, 1);
}

cudaError_t cudaMemcpyToArray(cudaArray_t dst, size_t wOffset, size_t hOffset, const void *src,
			      size_t count, enum cudaMemcpyKind kind)
{
	ARRAY_COPY_1D(cudaMemcpyToArray_v3020, dst, wOffset, hOffset, (void *)src, count, kind, 1,
		      NULL, 0, 0);
}

cudaError_t cudaMemcpyToArray_ptds(cudaArray_t dst, size_t wOffset, size_t hOffset,
				   const void *src, size_t count, enum cudaMemcpyKind kind)
{
	ARRAY_COPY_1D(cudaMemcpyToArray_ptds_v7000, dst, wOffset, hOffset, (void *)src, count,
		      kind, 1, NULL, 1, 0);
}

cudaError_t cudaMemcpyToArrayAsync(cudaArray_t dst, size_t wOffset, size_t hOffset,
				   const void *src, size_t count, enum cudaMemcpyKind kind,
				   cudaStream_t stream)
{
	ARRAY_COPY_1D(cudaMemcpyToArrayAsync_v3020, dst, wOffset, hOffset, (void *)src, count,
		      kind, 1, stream, 0, 1);
}

cudaError_t cudaMemcpyToArrayAsync_ptsz(cudaArray_t dst, size_t wOffset, size_t hOffset,
					const void *src, size_t count, enum cudaMemcpyKind kind,
					cudaStream_t stream)
{
	ARRAY_COPY_1D(cudaMemcpyToArrayAsync_ptsz_v7000, dst, wOffset, hOffset, (void *)src, count,
		      kind, 1, stream, 1, 1);
}

cudaError_t cudaMemcpyFromArray(void *dst, cudaArray_const_t src, size_t wOffset, size_t hOffset,
				size_t count, enum cudaMemcpyKind kind)
{
	ARRAY_COPY_1D(cudaMemcpyFromArray_v3020, src, wOffset, hOffset, dst, count, kind, 0, NULL,
		      0, 0);
}

cudaError_t cudaMemcpyFromArray_ptds(void *dst, cudaArray_const_t src, size_t wOffset,
				     size_t hOffset, size_t count, enum cudaMemcpyKind kind)
{
	ARRAY_COPY_1D(cudaMemcpyFromArray_ptds_v7000, src, wOffset, hOffset, dst, count, kind, 0,
		      NULL, 1, 0);
}

cudaError_t cudaMemcpyFromArrayAsync(void *dst, cudaArray_const_t src, size_t wOffset,
				     size_t hOffset, size_t count, enum cudaMemcpyKind kind,
				     cudaStream_t stream)
{
	ARRAY_COPY_1D(cudaMemcpyFromArrayAsync_v3020, src, wOffset, hOffset, dst, count, kind, 0,
		      stream, 0, 1);
}

cudaError_t cudaMemcpyFromArrayAsync_ptsz(void *dst, cudaArray_const_t src, size_t wOffset,
					  size_t hOffset, size_t count, enum cudaMemcpyKind kind,
					  cudaStream_t stream)
{
	ARRAY_COPY_1D(cudaMemcpyFromArrayAsync_ptsz_v7000, src, wOffset, hOffset, dst, count, kind,
		      0, stream, 1, 1);
}

/* ---- texture and surface objects ---- */

/* The driver's resource descriptor of a runtime one (resource types share
   their values; the mipmapped kind is refused by the driver). */
static cudaError_t to_resource(const struct cudaResourceDesc *r, CUDA_RESOURCE_DESC *out)
{
	memset(out, 0, sizeof(*out));
	out->resType = (CUresourcetype)r->resType;
	switch (r->resType) {
	case cudaResourceTypeArray:
		out->res.array.hArray = (CUarray)r->res.array.array;
		return cudaSuccess;
	case cudaResourceTypeMipmappedArray:
		out->res.mipmap.hMipmappedArray = (CUmipmappedArray)r->res.mipmap.mipmap;
		return cudaSuccess;
	case cudaResourceTypeLinear:
		out->res.linear.devPtr = (CUdeviceptr)(uintptr_t)r->res.linear.devPtr;
		out->res.linear.sizeInBytes = r->res.linear.sizeInBytes;
		return to_format(&r->res.linear.desc, &out->res.linear.format,
				 &out->res.linear.numChannels);
	case cudaResourceTypePitch2D:
		out->res.pitch2D.devPtr = (CUdeviceptr)(uintptr_t)r->res.pitch2D.devPtr;
		out->res.pitch2D.width = r->res.pitch2D.width;
		out->res.pitch2D.height = r->res.pitch2D.height;
		out->res.pitch2D.pitchInBytes = r->res.pitch2D.pitchInBytes;
		return to_format(&r->res.pitch2D.desc, &out->res.pitch2D.format,
				 &out->res.pitch2D.numChannels);
	default:
		return cudaErrorInvalidValue;
	}
}

static void from_resource(const CUDA_RESOURCE_DESC *r, struct cudaResourceDesc *out)
{
	memset(out, 0, sizeof(*out));
	out->resType = (enum cudaResourceType)r->resType;
	switch (r->resType) {
	case CU_RESOURCE_TYPE_ARRAY:
		out->res.array.array = (cudaArray_t)r->res.array.hArray;
		break;
	case CU_RESOURCE_TYPE_MIPMAPPED_ARRAY:
		out->res.mipmap.mipmap = (cudaMipmappedArray_t)r->res.mipmap.hMipmappedArray;
		break;
	case CU_RESOURCE_TYPE_LINEAR:
		out->res.linear.devPtr = (void *)(uintptr_t)r->res.linear.devPtr;
		out->res.linear.sizeInBytes = r->res.linear.sizeInBytes;
		out->res.linear.desc = from_format(r->res.linear.format, r->res.linear.numChannels);
		break;
	case CU_RESOURCE_TYPE_PITCH2D:
		out->res.pitch2D.devPtr = (void *)(uintptr_t)r->res.pitch2D.devPtr;
		out->res.pitch2D.width = r->res.pitch2D.width;
		out->res.pitch2D.height = r->res.pitch2D.height;
		out->res.pitch2D.pitchInBytes = r->res.pitch2D.pitchInBytes;
		out->res.pitch2D.desc = from_format(r->res.pitch2D.format,
						    r->res.pitch2D.numChannels);
		break;
	}
}

/* Address, filter and read modes, normalised coordinates and sRGB as the
   driver's flags; a resource view is not simulated: NULL only (else
   cudaErrorNotSupported). */
cudaError_t cudaCreateTextureObject(cudaTextureObject_t *pTexObject,
				    const struct cudaResourceDesc *pResDesc,
				    const struct cudaTextureDesc *pTexDesc,
				    const struct cudaResourceViewDesc *pResViewDesc)
{
	ENTER();
	if (!pTexObject || !pResDesc || !pTexDesc)
		return sim_return(cudaErrorInvalidValue);
	if (pResViewDesc)
		return sim_return(cudaErrorNotSupported);
	CUDA_RESOURCE_DESC res;
	cudaError_t err = to_resource(pResDesc, &res);
	if (err != cudaSuccess)
		return sim_return(err);
	CUDA_TEXTURE_DESC tex;
	memset(&tex, 0, sizeof(tex));
	for (int i = 0; i < 3; i++)
		tex.addressMode[i] = (CUaddress_mode)pTexDesc->addressMode[i];
	tex.filterMode = (CUfilter_mode)pTexDesc->filterMode;
	tex.mipmapFilterMode = (CUfilter_mode)pTexDesc->mipmapFilterMode;
	if ((unsigned int)pTexDesc->readMode > cudaReadModeNormalizedFloat)
		return sim_return(cudaErrorInvalidValue);
	tex.flags = (pTexDesc->readMode == cudaReadModeElementType ? CU_TRSF_READ_AS_INTEGER : 0) |
		    (pTexDesc->normalizedCoords ? CU_TRSF_NORMALIZED_COORDINATES : 0) |
		    (pTexDesc->sRGB ? CU_TRSF_SRGB : 0);
	tex.maxAnisotropy = pTexDesc->maxAnisotropy;
	for (int i = 0; i < 4; i++)
		tex.borderColor[i] = pTexDesc->borderColor[i];
	CUtexObject t = 0;
	err = cudart_error(cudart_drv.tex_object_create(&t, &res, &tex, NULL));
	if (err == cudaSuccess)
		*pTexObject = (cudaTextureObject_t)t;
	return sim_return(err);
}

cudaError_t cudaDestroyTextureObject(cudaTextureObject_t texObject)
{
	ENTER();
	return sim_return(cudart_error(cudart_drv.tex_object_destroy((CUtexObject)texObject)));
}

cudaError_t cudaGetTextureObjectResourceDesc(struct cudaResourceDesc *pResDesc,
					     cudaTextureObject_t texObject)
{
	ENTER();
	if (!pResDesc)
		return sim_return(cudaErrorInvalidValue);
	CUDA_RESOURCE_DESC res;
	cudaError_t err = cudart_error(cudart_drv.tex_object_get_resource_desc(&res,
									     (CUtexObject)texObject));
	if (err == cudaSuccess)
		from_resource(&res, pResDesc);
	return sim_return(err);
}

cudaError_t cudaCreateSurfaceObject(cudaSurfaceObject_t *pSurfObject,
				    const struct cudaResourceDesc *pResDesc)
{
	ENTER();
	if (!pSurfObject || !pResDesc)
		return sim_return(cudaErrorInvalidValue);
	CUDA_RESOURCE_DESC res;
	cudaError_t err = to_resource(pResDesc, &res);
	if (err != cudaSuccess)
		return sim_return(err);
	CUsurfObject s = 0;
	err = cudart_error(cudart_drv.surf_object_create(&s, &res));
	if (err == cudaSuccess)
		*pSurfObject = (cudaSurfaceObject_t)s;
	return sim_return(err);
}

cudaError_t cudaDestroySurfaceObject(cudaSurfaceObject_t surfObject)
{
	ENTER();
	return sim_return(cudart_error(cudart_drv.surf_object_destroy((CUsurfObject)surfObject)));
}

cudaError_t cudaGetSurfaceObjectResourceDesc(struct cudaResourceDesc *pResDesc,
					     cudaSurfaceObject_t surfObject)
{
	ENTER();
	if (!pResDesc)
		return sim_return(cudaErrorInvalidValue);
	CUDA_RESOURCE_DESC res;
	cudaError_t err = cudart_error(cudart_drv.surf_object_get_resource_desc(
		&res, (CUsurfObject)surfObject));
	if (err == cudaSuccess)
		from_resource(&res, pResDesc);
	return sim_return(err);
}
