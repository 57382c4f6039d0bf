"""SummaryWriter and FileWriter: summaries and events to TensorBoard event files
(written by tensorboard's own EventFileWriter, so TensorBoard reads them)."""
import os
import time

from tensorboard.compat import tf
from tensorboard.compat.proto import event_pb2
from tensorboard.compat.proto.event_pb2 import Event, SessionLog
from tensorboard.summary.writer.event_file_writer import EventFileWriter

from autograd_core.utils.tensorboard import summary as _summary
from autograd_core.utils.tensorboard._utils import figure_to_image, make_grid, make_np

__all__ = ["FileWriter", "SummaryWriter"]


class FileWriter:
    """Protocol buffers to an event file in log_dir, written asynchronously: queued, and
    flushed every flush_secs seconds or when max_queue events wait.

    >>> import tempfile
    >>> from autograd_core.utils.tensorboard import FileWriter
    >>> d = tempfile.mkdtemp()
    >>> w = FileWriter(d); w.get_logdir() == d
    True
    >>> w.close()
    """

    def __init__(self, log_dir, max_queue=10, flush_secs=120, filename_suffix=""):
        log_dir = str(log_dir)
        self.event_writer = EventFileWriter(log_dir, max_queue, flush_secs, filename_suffix)

    def get_logdir(self):
        """The directory of the event file."""
        return self.event_writer.get_logdir()

    def add_event(self, event, step=None, walltime=None):
        """Write an Event, stamped with walltime (now by default) and step if given."""
        event.wall_time = time.time() if walltime is None else walltime
        if step is not None:
            event.step = int(step)
        self.event_writer.add_event(event)

    def add_summary(self, summary, global_step=None, walltime=None):
        """Write a Summary (in an Event)."""
        self.add_event(event_pb2.Event(summary=summary), global_step, walltime)

    def add_graph(self, graph_profile, walltime=None):
        """Write a (GraphDef, RunMetadata) pair: the graph and its step statistics."""
        graph, stepstats = graph_profile
        self.add_event(event_pb2.Event(graph_def=graph.SerializeToString()), None, walltime)
        trm = event_pb2.TaggedRunMetadata(tag="step1",
                                          run_metadata=stepstats.SerializeToString())
        self.add_event(event_pb2.Event(tagged_run_metadata=trm), None, walltime)

    def add_onnx_graph(self, graph, walltime=None):
        """Write a GraphDef."""
        self.add_event(event_pb2.Event(graph_def=graph.SerializeToString()), None, walltime)

    def flush(self):
        """Write the pending events to disk."""
        self.event_writer.flush()

    def close(self):
        """Flush and close the event file."""
        self.event_writer.close()

    def reopen(self):
        """After close(): further events go to a new event file in the same directory."""
        self.event_writer.reopen()


class SummaryWriter:
    """Logs scalars, histograms, images, text, hyperparameters, curves, meshes,
    embeddings and graphs to event files under log_dir for TensorBoard (by default
    ``runs/<Mon DD_HH-MM-SS>_<hostname><comment>``, as PyTorch's).  A context manager:
    leaving it closes the files.

    >>> import tempfile, autograd_core as torch
    >>> from autograd_core.utils.tensorboard import SummaryWriter
    >>> with SummaryWriter(tempfile.mkdtemp()) as w:
    ...     for step in range(3):
    ...         w.add_scalar("loss", 1.0 / (step + 1), step)
    ...     w.add_histogram("weights", torch.randn(100), 0)
    ...     w.add_text("note", "hello", 0)
    """

    def __init__(self, log_dir=None, comment="", purge_step=None, max_queue=10,
                 flush_secs=120, filename_suffix=""):
        if not log_dir:
            import socket
            from datetime import datetime
            current_time = datetime.now().strftime("%b%d_%H-%M-%S")
            log_dir = os.path.join("runs", current_time + "_" + socket.gethostname() + comment)
        self.log_dir = log_dir
        self.purge_step = purge_step
        self.max_queue = max_queue
        self.flush_secs = flush_secs
        self.filename_suffix = filename_suffix
        self.file_writer = self.all_writers = None
        self._get_file_writer()
        # the "tensorflow" histogram bins: +-1e-12 growing by 10% up to 1e20, and 0
        v = 1e-12
        buckets, neg_buckets = [], []
        while v < 1e20:
            buckets.append(v)
            neg_buckets.append(-v)
            v *= 1.1
        self.default_bins = neg_buckets[::-1] + [0] + buckets

    def _get_file_writer(self):
        """The writer of log_dir, made again after close()."""
        if self.all_writers is None or self.file_writer is None:
            self.file_writer = FileWriter(self.log_dir, self.max_queue, self.flush_secs,
                                          self.filename_suffix)
            self.all_writers = {self.file_writer.get_logdir(): self.file_writer}
            if self.purge_step is not None:
                # TensorBoard hides the events at or after purge_step written before
                # this restart
                self.file_writer.add_event(Event(step=self.purge_step,
                                                 file_version="brain.Event:2"))
                self.file_writer.add_event(Event(step=self.purge_step, session_log=SessionLog(
                    status=SessionLog.START)))
                self.purge_step = None
        return self.file_writer

    def get_logdir(self):
        """The directory event files go to."""
        return self.log_dir

    def add_hparams(self, hparam_dict, metric_dict, hparam_domain_discrete=None,
                    run_name=None, global_step=None):
        """Log a run's hyperparameters (bool, str, int, float or a one-element tensor
        each) with its metrics, for the hparams plugin: in a sub-run named run_name (the
        time by default) of log_dir."""
        if type(hparam_dict) is not dict or type(metric_dict) is not dict:
            raise TypeError("hparam_dict and metric_dict should be dictionary.")
        exp, ssi, sei = _summary.hparams(hparam_dict, metric_dict, hparam_domain_discrete)
        if not run_name:
            run_name = str(time.time())
        logdir = os.path.join(self._get_file_writer().get_logdir(), run_name)
        with SummaryWriter(log_dir=logdir) as w_hp:
            w_hp.file_writer.add_summary(exp, global_step)
            w_hp.file_writer.add_summary(ssi, global_step)
            w_hp.file_writer.add_summary(sei, global_step)
            for k, v in metric_dict.items():
                w_hp.add_scalar(k, v, global_step)

    def add_scalar(self, tag, scalar_value, global_step=None, walltime=None, new_style=False,
                   double_precision=False):
        """Log one number (a Python number, numpy scalar or one-element tensor)."""
        summary = _summary.scalar(tag, scalar_value, new_style=new_style,
                                  double_precision=double_precision)
        self._get_file_writer().add_summary(summary, global_step, walltime)

    def add_scalars(self, main_tag, tag_scalar_dict, global_step=None, walltime=None):
        """Log several numbers under main_tag, each in its own sub-run
        ``log_dir/<main_tag>_<tag>`` (so TensorBoard draws them in one chart)."""
        walltime = time.time() if walltime is None else walltime
        fw_logdir = self._get_file_writer().get_logdir()
        for tag, scalar_value in tag_scalar_dict.items():
            fw_tag = fw_logdir + "/" + main_tag.replace("/", "_") + "_" + tag
            if self.all_writers is None:
                raise AssertionError("self.all_writers is None")
            fw = self.all_writers.get(fw_tag)
            if fw is None:
                fw = FileWriter(fw_tag, self.max_queue, self.flush_secs, self.filename_suffix)
                self.all_writers[fw_tag] = fw
            fw.add_summary(_summary.scalar(main_tag, scalar_value), global_step, walltime)

    def add_tensor(self, tag, tensor, global_step=None, walltime=None):
        """Log a whole tensor (values, dtype, shape)."""
        self._get_file_writer().add_summary(_summary.tensor_proto(tag, tensor), global_step,
                                            walltime)

    def add_histogram(self, tag, values, global_step=None, bins="tensorflow", walltime=None,
                      max_bins=None):
        """Log a histogram of values; bins as numpy.histogram takes them, or "tensorflow"
        (the default: TensorFlow's exponential buckets)."""
        if isinstance(bins, str) and bins == "tensorflow":
            bins = self.default_bins
        self._get_file_writer().add_summary(
            _summary.histogram(tag, values, bins, max_bins=max_bins), global_step, walltime)

    def add_histogram_raw(self, tag, min, max, num, sum, sum_squares, bucket_limits,
                          bucket_counts, global_step=None, walltime=None):
        """Log a histogram given by its statistics and buckets."""
        if len(bucket_limits) != len(bucket_counts):
            raise ValueError("len(bucket_limits) != len(bucket_counts), see the document.")
        self._get_file_writer().add_summary(
            _summary.histogram_raw(tag, min, max, num, sum, sum_squares, bucket_limits,
                                   bucket_counts), global_step, walltime)

    def add_image(self, tag, img_tensor, global_step=None, walltime=None, dataformats="CHW"):
        """Log an image (floats in [0, 1] or uint8), laid out as dataformats says (CHW,
        HWC, HW, ...); needs pillow."""
        self._get_file_writer().add_summary(
            _summary.image(tag, img_tensor, dataformats=dataformats), global_step, walltime)

    def add_images(self, tag, img_tensor, global_step=None, walltime=None,
                   dataformats="NCHW"):
        """Log a batch of images as one grid image."""
        self._get_file_writer().add_summary(
            _summary.image(tag, img_tensor, dataformats=dataformats), global_step, walltime)

    def add_image_with_boxes(self, tag, img_tensor, box_tensor, global_step=None,
                             walltime=None, rescale=1, dataformats="CHW", labels=None):
        """Log an image with boxes (N x 4: xmin, ymin, xmax, ymax) drawn on it."""
        if labels is not None:
            if isinstance(labels, str):
                labels = [labels]
            if len(labels) != box_tensor.shape[0]:
                labels = None
        self._get_file_writer().add_summary(
            _summary.image_boxes(tag, img_tensor, box_tensor, rescale=rescale,
                                 dataformats=dataformats, labels=labels),
            global_step, walltime)

    def add_figure(self, tag, figure, global_step=None, close=True, walltime=None):
        """Log a matplotlib figure (or a list of them, as a grid) as an image; needs
        matplotlib."""
        self.add_image(tag, figure_to_image(figure, close), global_step, walltime,
                       dataformats="NCHW" if isinstance(figure, list) else "CHW")

    def add_video(self, tag, vid_tensor, global_step=None, fps=4, walltime=None):
        """Log videos (N x T x C x H x W) as an animated GIF; needs moviepy."""
        self._get_file_writer().add_summary(_summary.video(tag, vid_tensor, fps), global_step,
                                            walltime)

    def add_audio(self, tag, snd_tensor, global_step=None, sample_rate=44100, walltime=None):
        """Log a sound (samples in [-1, 1]) as a WAV."""
        self._get_file_writer().add_summary(
            _summary.audio(tag, snd_tensor, sample_rate=sample_rate), global_step, walltime)

    def add_text(self, tag, text_string, global_step=None, walltime=None):
        """Log a string (markdown)."""
        self._get_file_writer().add_summary(_summary.text(tag, text_string), global_step,
                                            walltime)

    def add_onnx_graph(self, prototxt):
        """Not available: it reads an ONNX model, and this library has no ONNX support
        (PyTorch's needs the onnx package)."""
        raise NotImplementedError("add_onnx_graph needs ONNX, which autograd_core does not "
                                  "support")

    def add_graph(self, model, input_to_model=None, verbose=False, use_strict_trace=True):
        """Log the autograd graph of one forward pass of model (in eval mode) on
        input_to_model, for TensorBoard's graph view.  Not PyTorch's TorchScript trace
        (there is no tracer here): op nodes are autograd's backward nodes, fed by the
        parameters (by name) and inputs (Note [add_graph]); use_strict_trace is
        accepted and has nothing to act on."""
        from autograd_core.utils.tensorboard._autograd_graph import graph
        self._get_file_writer().add_graph(graph(model, input_to_model, verbose))

    @staticmethod
    def _encode(rawstr):
        # a tag as one path component: %, / and \ escaped as %xx
        retval = rawstr.replace("%", f"%{ord('%'):02x}")
        retval = retval.replace("/", f"%{ord('/'):02x}")
        return retval.replace("\\", f"%{ord(chr(92)):02x}")

    def add_embedding(self, mat, metadata=None, label_img=None, global_step=None,
                      tag="default", metadata_header=None):
        """Log points (rows of mat, N x D) for the embedding projector, with per-point
        labels (metadata) and thumbnails (label_img, N x C x H x W) if given: files in
        ``log_dir/<step>/<tag>`` and ``projector_config.pbtxt``."""
        from google.protobuf import text_format
        from tensorboard.plugins.projector.projector_config_pb2 import ProjectorConfig
        mat = make_np(mat)
        if global_step is None:
            global_step = 0
        subdir = f"{str(global_step).zfill(5)}/{self._encode(tag)}"
        save_path = os.path.join(self._get_file_writer().get_logdir(), subdir)
        fs = tf.io.gfile
        if fs.exists(save_path):
            if fs.isdir(save_path):
                print("warning: Embedding dir exists, did you set global_step for "
                      "add_embedding()?")
            else:
                raise NotADirectoryError(
                    f"Path: `{save_path}` exists, but is a file. Cannot proceed.")
        else:
            fs.makedirs(save_path)
        if metadata is not None:
            if mat.shape[0] != len(metadata):
                raise AssertionError("#labels should equal with #data points")
            _make_tsv(metadata, save_path, metadata_header=metadata_header)
        if label_img is not None:
            if mat.shape[0] != label_img.shape[0]:
                raise AssertionError("#images should equal with #data points")
            _make_sprite(label_img, save_path)
        if mat.ndim != 2:
            raise AssertionError("mat should be 2D, where mat.size(0) is the number of data "
                                 "points")
        with fs.GFile(os.path.join(save_path, "tensors.tsv"), "wb") as f:
            for x in mat:
                f.write(tf.compat.as_bytes("\t".join(str(i.item()) for i in x) + "\n"))
        if not hasattr(self, "_projector_config"):
            self._projector_config = ProjectorConfig()
        info = self._projector_config.embeddings.add()
        info.tensor_name = f"{tag}:{str(global_step).zfill(5)}"
        info.tensor_path = os.path.join(subdir, "tensors.tsv")
        if metadata is not None:
            info.metadata_path = os.path.join(subdir, "metadata.tsv")
        if label_img is not None:
            info.sprite.image_path = os.path.join(subdir, "sprite.png")
            info.sprite.single_image_dim.extend([label_img.size(3), label_img.size(2)])
        config = os.path.join(self._get_file_writer().get_logdir(), "projector_config.pbtxt")
        with fs.GFile(config, "wb") as f:
            f.write(tf.compat.as_bytes(text_format.MessageToString(self._projector_config)))

    def add_pr_curve(self, tag, labels, predictions, global_step=None, num_thresholds=127,
                     weights=None, walltime=None):
        """Log a precision-recall curve of binary labels against probabilities."""
        labels, predictions = make_np(labels), make_np(predictions)
        self._get_file_writer().add_summary(
            _summary.pr_curve(tag, labels, predictions, num_thresholds, weights),
            global_step, walltime)

    def add_pr_curve_raw(self, tag, true_positive_counts, false_positive_counts,
                         true_negative_counts, false_negative_counts, precision, recall,
                         global_step=None, num_thresholds=127, weights=None, walltime=None):
        """Log a precision-recall curve from its counts and rates per threshold."""
        self._get_file_writer().add_summary(
            _summary.pr_curve_raw(tag, true_positive_counts, false_positive_counts,
                                  true_negative_counts, false_negative_counts, precision,
                                  recall, num_thresholds, weights),
            global_step, walltime)

    def add_custom_scalars_multilinechart(self, tags, category="default", title="untitled"):
        """A custom-scalars chart of several scalar tags in one plot."""
        self._get_file_writer().add_summary(
            _summary.custom_scalars({category: {title: ["Multiline", tags]}}))

    def add_custom_scalars_marginchart(self, tags, category="default", title="untitled"):
        """A custom-scalars margin chart of three scalar tags: value, lower, upper."""
        if len(tags) != 3:
            raise AssertionError(f"Expected 3 tags, got {len(tags)}.")
        self._get_file_writer().add_summary(
            _summary.custom_scalars({category: {title: ["Margin", tags]}}))

    def add_custom_scalars(self, layout):
        """The custom-scalars layout: {category: {chart: ["Multiline" or "Margin",
        tags]}}."""
        self._get_file_writer().add_summary(_summary.custom_scalars(layout))

    def add_mesh(self, tag, vertices, colors=None, faces=None, config_dict=None,
                 global_step=None, walltime=None):
        """Log a mesh or point cloud (B x N x 3 vertices; colors, faces alike)."""
        self._get_file_writer().add_summary(
            _summary.mesh(tag, vertices, colors, faces, config_dict), global_step, walltime)

    def flush(self):
        """Write every pending event of every file to disk."""
        if self.all_writers is None:
            return
        for writer in self.all_writers.values():
            writer.flush()

    def close(self):
        """Flush and close every event file (a second close does nothing; a later add_*
        opens a new file)."""
        if self.all_writers is None:
            return
        for writer in self.all_writers.values():
            writer.flush()
            writer.close()
        self.file_writer = self.all_writers = None

    def __enter__(self):
        return self

    def __exit__(self, exc_type, exc_val, exc_tb):
        self.close()


def _make_tsv(metadata, save_path, metadata_header=None):
    if not metadata_header:
        metadata = [str(x) for x in metadata]
    else:
        if len(metadata_header) != len(metadata[0]):
            raise AssertionError("len of header must be equal to the number of columns in "
                                 "metadata")
        metadata = ["\t".join(str(e) for e in row) for row in [metadata_header] + metadata]
    with tf.io.gfile.GFile(os.path.join(save_path, "metadata.tsv"), "wb") as f:
        f.write(tf.compat.as_bytes("\n".join(metadata) + "\n"))


def _make_sprite(label_img, save_path):
    # the thumbnails in a square grid, one PNG
    import io
    import math

    import numpy as np
    from PIL import Image
    nrow = math.ceil(label_img.size(0) ** 0.5)
    grid_chw = make_grid(make_np(label_img), ncols=nrow)
    square = np.zeros((grid_chw.shape[2], grid_chw.shape[2], 3))
    grid_hwc = grid_chw.transpose(1, 2, 0)
    square[:grid_hwc.shape[0], :, :] = grid_hwc
    im = Image.fromarray(np.uint8((square * 255).clip(0, 255)))
    with io.BytesIO() as buf:
        im.save(buf, format="PNG")
        data = buf.getvalue()
    with tf.io.gfile.GFile(os.path.join(save_path, "sprite.png"), "wb") as f:
        f.write(data)
