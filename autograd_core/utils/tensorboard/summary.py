"""The Summary protocol buffers of the SummaryWriter (tensorboard's protos), one maker
per kind of data; the field values are PyTorch's for the same inputs."""
import io
import json
import logging
import struct

import numpy as np
from google.protobuf import struct_pb2
from tensorboard.compat.proto.summary_pb2 import HistogramProto, Summary, SummaryMetadata
from tensorboard.compat.proto.tensor_pb2 import TensorProto
from tensorboard.compat.proto.tensor_shape_pb2 import TensorShapeProto
from tensorboard.plugins.custom_scalar import layout_pb2
from tensorboard.plugins.pr_curve.plugin_data_pb2 import PrCurvePluginData
from tensorboard.plugins.text.plugin_data_pb2 import TextPluginData

from autograd_core.utils.tensorboard._utils import _prepare_video, convert_to_HWC, make_np

__all__ = ["half_to_int", "int_to_half", "hparams", "scalar", "histogram_raw", "histogram",
           "make_histogram", "image", "image_boxes", "draw_boxes", "make_image", "video",
           "make_video", "audio", "custom_scalars", "text", "tensor_proto", "pr_curve_raw",
           "pr_curve", "compute_curve", "mesh"]

logger = logging.getLogger(__name__)


def half_to_int(f):
    """The bits of f as a float32, read as an int32 (how a TensorProto's half_val holds
    float16 and bfloat16 values)."""
    return struct.unpack("i", struct.pack("f", f))[0]


def int_to_half(i):
    """The inverse of half_to_int."""
    return struct.unpack("f", struct.pack("i", i))[0]


def _half_val(t):
    return [half_to_int(x) for x in t.flatten().tolist()]


def _complex_val(t):
    import autograd_core as _ag
    return _ag.view_as_real(t).flatten().tolist()


def _list_val(t):
    return t.flatten().tolist()


# dtype name -> (TensorProto dtype, field, conversion), PyTorch's table
_TENSOR_TYPES = {
    "float16": ("DT_HALF", "half_val", _half_val),
    "bfloat16": ("DT_BFLOAT16", "half_val", _half_val),
    "float32": ("DT_FLOAT", "float_val", _list_val),
    "float64": ("DT_DOUBLE", "double_val", _list_val),
    "int8": ("DT_INT8", "int_val", _list_val),
    "uint8": ("DT_UINT8", "uint32_val", _list_val),
    "int16": ("DT_INT16", "int_val", _list_val),
    "int32": ("DT_INT32", "int_val", _list_val),
    "int64": ("DT_INT64", "int64_val", _list_val),
    "complex64": ("DT_COMPLEX64", "scomplex_val", _complex_val),
    "complex128": ("DT_COMPLEX128", "dcomplex_val", _complex_val),
    "bool": ("DT_BOOL", "bool_val", _list_val),
}


def _plugin_metadata(name, content=None):
    data = SummaryMetadata.PluginData(plugin_name=name)
    if content is not None:
        data.content = content
    return SummaryMetadata(plugin_data=data)


def _shape_proto(shape):
    return TensorShapeProto(dim=[TensorShapeProto.Dim(size=int(x)) for x in shape])


def _calc_scale_factor(array):
    # uint8 images are 0..255 already; anything else is taken as 0..1
    return 1 if array.dtype == np.uint8 else 255


def hparams(hparam_dict=None, metric_dict=None, hparam_domain_discrete=None):
    """The three Summaries of the hparams plugin: the experiment (names of the
    hyperparameters and metrics), the session start (their values) and the session end
    (status success)."""
    import autograd_core as _ag
    from tensorboard.plugins.hparams.api_pb2 import (DataType, Experiment, HParamInfo,
                                                     MetricInfo, MetricName, Status)
    from tensorboard.plugins.hparams.metadata import (EXPERIMENT_TAG, PLUGIN_DATA_VERSION,
                                                      PLUGIN_NAME, SESSION_END_INFO_TAG,
                                                      SESSION_START_INFO_TAG)
    from tensorboard.plugins.hparams.plugin_data_pb2 import (HParamsPluginData,
                                                             SessionEndInfo,
                                                             SessionStartInfo)
    for name, d in (("hparam_dict", hparam_dict), ("metric_dict", metric_dict)):
        if not isinstance(d, dict):
            logger.warning("parameter: %s should be a dictionary, nothing logged.", name)
            raise TypeError(f"parameter: {name} should be a dictionary, nothing logged.")
    hparam_domain_discrete = hparam_domain_discrete or {}
    if not isinstance(hparam_domain_discrete, dict):
        raise TypeError(
            "parameter: hparam_domain_discrete should be a dictionary, nothing logged.")
    for k, v in hparam_domain_discrete.items():
        if k not in hparam_dict or not isinstance(v, list) or \
                not all(isinstance(d, type(hparam_dict[k])) for d in v):
            raise TypeError(f"parameter: hparam_domain_discrete[{k}] should be a list of same "
                            f"type as hparam_dict[{k}].")
    hps = []
    ssi = SessionStartInfo()
    for k, v in hparam_dict.items():
        if v is None:
            continue
        # (bool is an int: True and False are logged as numbers, as PyTorch does)
        if isinstance(v, (int, float)):
            kind, field = "DATA_TYPE_FLOAT64", "number_value"
        elif isinstance(v, str):
            kind, field = "DATA_TYPE_STRING", "string_value"
        elif isinstance(v, _ag.Tensor):
            ssi.hparams[k].number_value = make_np(v)[0]
            hps.append(HParamInfo(name=k, type=DataType.Value("DATA_TYPE_FLOAT64")))
            continue
        else:
            raise ValueError("value should be one of int, float, str, bool, or "
                             "autograd_core.Tensor")
        setattr(ssi.hparams[k], field, v)
        domain_discrete = None
        if k in hparam_domain_discrete:
            domain_discrete = struct_pb2.ListValue(values=[
                struct_pb2.Value(**{field: d}) for d in hparam_domain_discrete[k]])
        hps.append(HParamInfo(name=k, type=DataType.Value(kind),
                              domain_discrete=domain_discrete))

    def summary(tag, **content):
        data = HParamsPluginData(version=PLUGIN_DATA_VERSION, **content)
        return Summary(value=[Summary.Value(
            tag=tag, metadata=_plugin_metadata(PLUGIN_NAME, data.SerializeToString()))])

    ssi = summary(SESSION_START_INFO_TAG, session_start_info=ssi)
    exp = summary(EXPERIMENT_TAG, experiment=Experiment(
        hparam_infos=hps, metric_infos=[MetricInfo(name=MetricName(tag=k))
                                        for k in metric_dict]))
    sei = summary(SESSION_END_INFO_TAG,
                  session_end_info=SessionEndInfo(status=Status.Value("STATUS_SUCCESS")))
    return exp, ssi, sei


def scalar(name, tensor, collections=None, new_style=False, double_precision=False):
    """A Summary of one scalar: in simple_value, or with new_style in a tensor field
    (float, or double with double_precision) of the scalars plugin."""
    tensor = make_np(tensor).squeeze()
    if tensor.ndim != 0:
        raise AssertionError(f"Tensor should contain one element (0 dimensions). \
            Was given size: {tensor.size} and {tensor.ndim} dimensions.")
    value = float(tensor)
    if new_style:
        proto = TensorProto(double_val=[value], dtype="DT_DOUBLE") if double_precision \
            else TensorProto(float_val=[value], dtype="DT_FLOAT")
        return Summary(value=[Summary.Value(tag=name, tensor=proto,
                                            metadata=_plugin_metadata("scalars"))])
    return Summary(value=[Summary.Value(tag=name, simple_value=value)])


def tensor_proto(tag, tensor):
    """A Summary holding a whole tensor (values, dtype and shape) for the tensor plugin."""
    if tensor.numel() * tensor.itemsize >= (1 << 31):
        raise ValueError("tensor is bigger than protocol buffer's hard limit of 2GB in size")
    entry = _TENSOR_TYPES.get(tensor.dtype.name)
    if entry is None:
        raise ValueError(f"{tag} has unsupported tensor dtype {tensor.dtype}")
    dtype, field_name, conversion_fn = entry
    proto = TensorProto(**{"dtype": dtype, "tensor_shape": _shape_proto(tensor.shape),
                           field_name: conversion_fn(tensor)})
    return Summary(value=[Summary.Value(tag=tag, metadata=_plugin_metadata("tensor"),
                                        tensor=proto)])


def histogram_raw(name, min, max, num, sum, sum_squares, bucket_limits, bucket_counts):
    """A histogram Summary from its statistics and buckets as given."""
    hist = HistogramProto(min=min, max=max, num=num, sum=sum, sum_squares=sum_squares,
                          bucket_limit=bucket_limits, bucket=bucket_counts)
    return Summary(value=[Summary.Value(tag=name, histo=hist)])


def histogram(name, values, bins, max_bins=None):
    """A histogram Summary of values (any shape), binned by numpy.histogram's bins."""
    values = make_np(values)
    return Summary(value=[Summary.Value(
        tag=name, histo=make_histogram(values.astype(float), bins, max_bins))])


def make_histogram(values, bins, max_bins=None):
    """The HistogramProto of values: numpy's counts, merged to at most max_bins buckets,
    with the empty buckets at both ends dropped but for one empty bucket before the
    first used one (TensorFlow's histogram.cc layout)."""
    if values.size == 0:
        raise ValueError("The input has no element.")
    values = values.reshape(-1)
    counts, limits = np.histogram(values, bins=bins)
    num_bins = len(counts)
    if max_bins is not None and num_bins > max_bins:
        subsampling = num_bins // max_bins
        subsampling_remainder = num_bins % subsampling
        if subsampling_remainder != 0:
            counts = np.pad(counts, pad_width=[[0, subsampling - subsampling_remainder]],
                            mode="constant", constant_values=0)
        counts = counts.reshape(-1, subsampling).sum(axis=-1)
        new_limits = np.empty((counts.size + 1,), limits.dtype)
        new_limits[:-1] = limits[:-1:subsampling]
        new_limits[-1] = limits[-1]
        limits = new_limits
    # the first and last used buckets
    cum_counts = np.cumsum(np.greater(counts, 0))
    start, end = np.searchsorted(cum_counts, [0, cum_counts[-1] - 1], side="right")
    start, end = int(start), int(end) + 1
    counts = counts[start - 1:end] if start > 0 else np.concatenate([[0], counts[:end]])
    limits = limits[start:end + 1]
    if counts.size == 0 or limits.size == 0:
        raise ValueError("The histogram is empty, please file a bug report.")
    return HistogramProto(min=values.min(), max=values.max(), num=len(values),
                          sum=values.sum(), sum_squares=values.dot(values),
                          bucket_limit=limits.tolist(), bucket=counts.tolist())


def image(tag, tensor, rescale=1, dataformats="NCHW"):
    """An image Summary (PNG) of tensor: floats in [0, 1] or uint8 in [0, 255], laid out
    as dataformats says (a batch becomes a grid), clipped to the range."""
    tensor = convert_to_HWC(make_np(tensor), dataformats)
    scale_factor = _calc_scale_factor(tensor)
    tensor = (tensor.astype(np.float32) * scale_factor).clip(0, 255).astype(np.uint8)
    return Summary(value=[Summary.Value(tag=tag, image=make_image(tensor, rescale=rescale))])


def image_boxes(tag, tensor_image, tensor_boxes, rescale=1, dataformats="CHW", labels=None):
    """An image Summary with boxes (N x 4: xmin, ymin, xmax, ymax) drawn on it."""
    tensor_image = convert_to_HWC(make_np(tensor_image), dataformats)
    tensor_boxes = make_np(tensor_boxes)
    tensor_image = tensor_image.astype(np.float32) * _calc_scale_factor(tensor_image)
    img = make_image(tensor_image.clip(0, 255).astype(np.uint8), rescale=rescale,
                     rois=tensor_boxes, labels=labels)
    return Summary(value=[Summary.Value(tag=tag, image=img)])


def _draw_single_box(image, xmin, ymin, xmax, ymax, display_str, color="black",
                     color_text="black", thickness=2):
    from PIL import ImageDraw, ImageFont
    font = ImageFont.load_default()
    draw = ImageDraw.Draw(image)
    left, right, top, bottom = xmin, xmax, ymin, ymax
    draw.line([(left, top), (left, bottom), (right, bottom), (right, top), (left, top)],
              width=thickness, fill=color)
    if display_str:
        text_bottom = bottom
        _left, _top, _right, _bottom = font.getbbox(display_str)
        text_width, text_height = _right - _left, _bottom - _top
        margin = np.ceil(0.05 * text_height)
        draw.rectangle([(left, text_bottom - text_height - 2 * margin),
                        (left + text_width, text_bottom)], fill=color)
        draw.text((left + margin, text_bottom - text_height - margin), display_str,
                  fill=color_text, font=font)
    return image


def draw_boxes(disp_image, boxes, labels=None):
    """A PIL image with each box drawn in red (and its label, if given)."""
    for i in range(boxes.shape[0]):
        disp_image = _draw_single_box(disp_image, boxes[i, 0], boxes[i, 1], boxes[i, 2],
                                      boxes[i, 3],
                                      display_str=None if labels is None else labels[i],
                                      color="Red")
    return disp_image


def make_image(tensor, rescale=1, rois=None, labels=None):
    """An H x W x C uint8 array as a Summary.Image (PNG-encoded by pillow)."""
    from PIL import Image
    height, width, channel = tensor.shape
    img = Image.fromarray(tensor)
    if rois is not None:
        img = draw_boxes(img, rois, labels=labels)
    img = img.resize((int(width * rescale), int(height * rescale)), Image.Resampling.LANCZOS)
    with io.BytesIO() as output:
        img.save(output, format="PNG")
        image_string = output.getvalue()
    return Summary.Image(height=height, width=width, colorspace=channel,
                         encoded_image_string=image_string)


def video(tag, tensor, fps=4):
    """A video Summary (an animated GIF; needs moviepy) of a B x T x C x H x W tensor."""
    tensor = _prepare_video(make_np(tensor))
    scale_factor = _calc_scale_factor(tensor)
    tensor = (tensor.astype(np.float32) * scale_factor).clip(0, 255).astype(np.uint8)
    return Summary(value=[Summary.Value(tag=tag, image=make_video(tensor, fps))])


def make_video(tensor, fps):
    """T x H x W x C frames as a GIF Summary.Image, or None (with PyTorch's message)
    when moviepy is missing."""
    try:
        import moviepy  # noqa: F401
    except ImportError:
        print("add_video needs package moviepy")
        return None
    try:
        from moviepy import editor as mpy
    except ImportError:
        print("moviepy is installed, but can't import moviepy.editor.",
              "Some packages could be missing [imageio, requests]")
        return None
    import tempfile
    _t, h, w, c = tensor.shape
    clip = mpy.ImageSequenceClip(list(tensor), fps=fps)
    with tempfile.NamedTemporaryFile(suffix=".gif") as f:
        try:
            clip.write_gif(f.name, verbose=False, logger=None)
        except TypeError:
            try:
                clip.write_gif(f.name, verbose=False, progress_bar=False)
            except TypeError:
                clip.write_gif(f.name, verbose=False)
        f.seek(0)
        return Summary.Image(height=h, width=w, colorspace=c, encoded_image_string=f.read())


def audio(tag, tensor, sample_rate=44100):
    """An audio Summary (16-bit mono WAV) of samples in [-1, 1] (clipped, with PyTorch's
    printed warning, when out of range)."""
    import wave
    array = make_np(tensor).squeeze()
    if abs(array).max() > 1:
        print("warning: audio amplitude out of range, auto clipped.")
        array = array.clip(-1, 1)
    if array.ndim != 1:
        raise AssertionError("input tensor should be 1 dimensional.")
    array = (array * np.iinfo(np.int16).max).astype("<i2")
    with io.BytesIO() as fio:
        with wave.open(fio, "wb") as wave_write:
            wave_write.setnchannels(1)
            wave_write.setsampwidth(2)
            wave_write.setframerate(sample_rate)
            wave_write.writeframes(array.data)
        audio_string = fio.getvalue()
    snd = Summary.Audio(sample_rate=sample_rate, num_channels=1,
                        length_frames=array.shape[-1], encoded_audio_string=audio_string,
                        content_type="audio/wav")
    return Summary(value=[Summary.Value(tag=tag, audio=snd)])


def custom_scalars(layout):
    """The custom scalars plugin's layout Summary: {category: {chart: ["Multiline" or
    "Margin", tags]}} (a margin chart takes three tags: value, lower, upper)."""
    categories = []
    for k, v in layout.items():
        charts = []
        for chart_name, chart_metadata in v.items():
            tags = chart_metadata[1]
            if chart_metadata[0] == "Margin":
                if len(tags) != 3:
                    raise AssertionError("len(tags) != 3")
                content = layout_pb2.MarginChartContent(series=[
                    layout_pb2.MarginChartContent.Series(value=tags[0], lower=tags[1],
                                                         upper=tags[2])])
                charts.append(layout_pb2.Chart(title=chart_name, margin=content))
            else:
                charts.append(layout_pb2.Chart(
                    title=chart_name, multiline=layout_pb2.MultilineChartContent(tag=tags)))
        categories.append(layout_pb2.Category(title=k, chart=charts))
    layout = layout_pb2.Layout(category=categories)
    tensor = TensorProto(dtype="DT_STRING", string_val=[layout.SerializeToString()],
                         tensor_shape=TensorShapeProto())
    return Summary(value=[Summary.Value(tag="custom_scalars__config__", tensor=tensor,
                                        metadata=_plugin_metadata("custom_scalars"))])


def text(tag, text):
    """A text Summary (markdown) under tag + "/text_summary"."""
    smd = _plugin_metadata("text", TextPluginData(version=0).SerializeToString())
    tensor = TensorProto(dtype="DT_STRING", string_val=[text.encode(encoding="utf_8")],
                         tensor_shape=_shape_proto([1]))
    return Summary(value=[Summary.Value(tag=tag + "/text_summary", metadata=smd,
                                        tensor=tensor)])


def _pr_summary(tag, data, num_thresholds):
    smd = _plugin_metadata("pr_curves", PrCurvePluginData(
        version=0, num_thresholds=num_thresholds).SerializeToString())
    tensor = TensorProto(dtype="DT_FLOAT", float_val=data.reshape(-1).tolist(),
                         tensor_shape=_shape_proto(data.shape[:2]))
    return Summary(value=[Summary.Value(tag=tag, metadata=smd, tensor=tensor)])


def pr_curve_raw(tag, tp, fp, tn, fn, precision, recall, num_thresholds=127, weights=None):
    """A precision-recall curve Summary from its counts and rates per threshold."""
    # more than 127 thresholds do not survive the plugin's protobuf
    num_thresholds = min(num_thresholds, 127)
    return _pr_summary(tag, np.stack((tp, fp, tn, fn, precision, recall)), num_thresholds)


def pr_curve(tag, labels, predictions, num_thresholds=127, weights=None):
    """A precision-recall curve Summary of binary labels against predicted
    probabilities."""
    num_thresholds = min(num_thresholds, 127)
    data = compute_curve(labels, predictions, num_thresholds=num_thresholds, weights=weights)
    return _pr_summary(tag, data, num_thresholds)


def compute_curve(labels, predictions, num_thresholds=None, weights=None):
    """Rows tp, fp, tn, fn, precision, recall, one column per threshold."""
    _MINIMUM_COUNT = 1e-7
    if weights is None:
        weights = 1.0
    bucket_indices = np.int32(np.floor(predictions * (num_thresholds - 1)))
    float_labels = labels.astype(np.float64)
    histogram_range = (0, num_thresholds - 1)
    tp_buckets, _ = np.histogram(bucket_indices, bins=num_thresholds, range=histogram_range,
                                 weights=float_labels * weights)
    fp_buckets, _ = np.histogram(bucket_indices, bins=num_thresholds, range=histogram_range,
                                 weights=(1.0 - float_labels) * weights)
    # counts at or above each threshold
    tp = np.cumsum(tp_buckets[::-1])[::-1]
    fp = np.cumsum(fp_buckets[::-1])[::-1]
    tn = fp[0] - fp
    fn = tp[0] - tp
    precision = tp / np.maximum(_MINIMUM_COUNT, tp + fp)
    recall = tp / np.maximum(_MINIMUM_COUNT, tp + fn)
    return np.stack((tp, fp, tn, fn, precision, recall))


def mesh(tag, vertices, colors, faces, config_dict, display_name=None, description=None):
    """The mesh plugin's Summary: one tensor value each for the vertices, faces and
    colors given (each B x N x 3), with the three.js config as JSON."""
    import autograd_core as _ag
    from tensorboard.plugins.mesh import metadata
    from tensorboard.plugins.mesh.plugin_data_pb2 import MeshPluginData
    json_config = "{}" if config_dict is None else json.dumps(config_dict, sort_keys=True)
    parts = [(t, kind) for t, kind in ((vertices, MeshPluginData.VERTEX),
                                       (faces, MeshPluginData.FACE),
                                       (colors, MeshPluginData.COLOR)) if t is not None]
    components = metadata.get_components_bitmask([kind for _, kind in parts])
    values = []
    for t, kind in parts:
        t = _ag.as_tensor(t)
        smd = metadata.create_summary_metadata(tag, display_name, kind, components, t.shape,
                                               description, json_config=json_config)
        proto = TensorProto(dtype="DT_FLOAT", float_val=t.reshape(-1).tolist(),
                            tensor_shape=_shape_proto([t.shape[0], t.shape[1], t.shape[2]]))
        values.append(Summary.Value(tag=metadata.get_instance_name(tag, kind), tensor=proto,
                                    metadata=smd))
    return Summary(value=values)
