/*
 * The cuDNN functions the tracer forwards to or queries, as an X-macro list
 * that real_functions.h folds into its one table: X(name, required).
 * Owned by the cuDNN wrappers; must list only functions of cudnn*.h.
 * Queries (required 0) are optional: without them the wrappers only lose
 * shapes or streams they did not see being set.
 */
#ifndef DNNTRACE_REAL_CUDNN_H
#define DNNTRACE_REAL_CUDNN_H

#define DNNTRACE_REAL_CUDNN_FUNCTIONS(X) \
	X(cudnnConvolutionForward, 1) X(cudnnConvolutionBackwardData, 1) \
	X(cudnnConvolutionBackwardFilter, 1) X(cudnnConvolutionBackwardBias, 1) \
	X(cudnnConvolutionBiasActivationForward, 1) \
	X(cudnnBatchNormalizationForwardTraining, 1) \
	X(cudnnBatchNormalizationForwardTrainingEx, 1) \
	X(cudnnBatchNormalizationForwardInference, 1) \
	X(cudnnBatchNormalizationBackward, 1) X(cudnnBatchNormalizationBackwardEx, 1) \
	X(cudnnActivationForward, 1) X(cudnnActivationBackward, 1) \
	X(cudnnPoolingForward, 1) X(cudnnPoolingBackward, 1) \
	X(cudnnSoftmaxForward, 1) X(cudnnSoftmaxBackward, 1) \
	X(cudnnAddTensor, 1) X(cudnnOpTensor, 1) \
	X(cudnnDropoutForward, 1) X(cudnnDropoutBackward, 1) \
	X(cudnnSetStream, 1) X(cudnnDestroy, 1) \
	X(cudnnSetTensor4dDescriptor, 1) X(cudnnSetTensor4dDescriptorEx, 1) \
	X(cudnnSetTensorNdDescriptor, 1) X(cudnnSetTensorNdDescriptorEx, 1) \
	X(cudnnDestroyTensorDescriptor, 1) X(cudnnDeriveBNTensorDescriptor, 1) \
	X(cudnnDeriveNormTensorDescriptor, 1) \
	X(cudnnSetFilter4dDescriptor, 1) X(cudnnSetFilterNdDescriptor, 1) \
	X(cudnnDestroyFilterDescriptor, 1) \
	X(cudnnBackendCreateDescriptor, 1) X(cudnnBackendDestroyDescriptor, 1) \
	X(cudnnBackendSetAttribute, 1) X(cudnnBackendGetAttribute, 1) \
	X(cudnnBackendFinalize, 1) X(cudnnBackendExecute, 1) \
	X(cudnnGetStream, 0) X(cudnnGetTensorNdDescriptor, 0) X(cudnnGetFilterNdDescriptor, 0)

#endif
